/**
 * An agent with 200 tools, 12 of them from an MCP server, that sends the model only a small part
 * of their schemas: `toolSearch` defers every tool until a search finds it. The model is scripted
 * (no API key, no network):
 *
 *   turn 0  the model sees the search tool alone, and searches for "book a flight"
 *   turn 1  it sees what the search found; it books the flight (an MCP tool) and a hotel (a local one)
 *   turn 2  it answers; the loop ends with `completed`
 *
 * For each turn it prints the characters of tool schemas the request carried (as Responses
 * tools), with deferred loading and without it (all 200 tools), and exits 1 if a turn sent more
 * than 10% of the full set. It prints the groups the search tool lists too (the MCP server
 * `travel`, and each local area by its name's prefix): a model can search a group's name to see
 * its tools.
 *
 * Run: npm run example:tool-search
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import { defineTool, ok, runAgent, toolSearch, type ModelEvent, type Tool, type ToolMessage } from "../src/index.js";
import { mcpTools, serveTools } from "../src/mcp/index.js";
import { openai } from "../src/providers/index.js";
import { scriptedModel } from "../src/testing/index.js";

// ── 12 tools on an MCP server, in memory ─────────────────────────────────────────────────

const travel = ["flight", "train", "car rental", "ferry", "bus", "visa", "insurance", "lounge", "seat", "baggage", "transfer", "cruise"].map((what) =>
  defineTool({
    name: `book_${what.replace(/ /g, "_")}`,
    description: `Book a ${what} for a traveller: dates, places and passengers`,
    schema: z.object({ from: z.string(), to: z.string(), date: z.string().describe("ISO date"), passengers: z.number().int().min(1) }),
    handler: ({ from, to, date }) => ok({ booked: what, from, to, date, reference: `${what.slice(0, 2).toUpperCase()}-4711` }),
  }),
);
const server = new Server({ name: "travel", version: "1.0.0" }, { capabilities: { tools: {} } });
serveTools(server, travel);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "toolrx-example", version: "1.0.0" });
await client.connect(clientSide);
const remote = await mcpTools({ travel: client });

// ── 188 local tools across a company's systems ───────────────────────────────────────────

const areas = ["invoice", "payroll", "ticket", "crm", "inventory", "calendar", "email", "wiki", "deploy", "metrics", "hotel", "expense"];
const verbs = [
  "create",
  "update",
  "delete",
  "list",
  "find",
  "export",
  "approve",
  "archive",
  "restore",
  "share",
  "assign",
  "close",
  "reopen",
  "tag",
  "merge",
  "audit",
];
const local: Tool[] = [];
for (const area of areas)
  for (const verb of verbs) {
    if (local.length === 188) break;
    local.push(
      defineTool({
        name: `${area}_${verb}`,
        description: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${area} records in the ${area} system`,
        schema: z.object({
          id: z.string().optional(),
          query: z.string().optional(),
          fields: z.record(z.string(), z.string()).optional(),
          dryRun: z.boolean().default(false),
        }),
        handler: (args) => ok({ area, verb, ...args, done: true }),
      }),
    );
  }
const all = [...remote, ...local];

// ── The agent: search first, then the tools it found ─────────────────────────────────────

const found = toolSearch({ tools: all, maxResults: 5 });
const call = (id: string, name: string, args: Record<string, unknown>): ModelEvent => ({ type: "tool_call", call: { id, name, arguments: args } });
const model = scriptedModel([
  [call("s1", "search_tools", { query: "book flight, create hotel" }), { type: "finish", reason: "tool_calls" }],
  [
    call("b1", "travel__book_flight", { from: "OSL", to: "LIS", date: "2027-03-01", passengers: 1 }),
    call("b2", "hotel_create", { query: "Lisbon, 3 nights from 2027-03-01" }),
    { type: "finish", reason: "tool_calls" },
  ],
  [
    { type: "text_delta", text: "Booked: flight FL-4711 to Lisbon and a hotel for three nights." },
    { type: "finish", reason: "stop" },
  ],
]);
const result = await runAgent({
  model,
  tools: found.tools,
  prepareTurn: found.prepareTurn,
  messages: [{ role: "user", content: "Book me Oslo→Lisbon on 1 March, with a hotel." }],
});

// ── What each request carried ────────────────────────────────────────────────────────────

console.log(`groups the search tool lists: ${found.groups.map((g) => `${g.name} (${g.size})`).join(", ")}`);
const schemaChars = (tools: readonly Tool[]) => JSON.stringify(openai.toResponsesTools(tools)).length;
const full = schemaChars(found.tools);
console.log(`${all.length} tools (${remote.length} from MCP); all schemas: ${full} characters per request`);
let worst = 0;
for (const request of model.requests) {
  const sent = schemaChars(request.tools);
  worst = Math.max(worst, sent / full);
  console.log(
    `turn ${request.turn}: ${String(request.tools.length).padStart(3)} tools, ${String(sent).padStart(6)} characters (${((100 * sent) / full).toFixed(1)}% of ${full}): ${request.tools.map((t) => t.name).join(", ")}`,
  );
}
const answers = result.messages.filter((m): m is ToolMessage => m.role === "tool");
for (const m of answers) console.log(`  ${m.name}: ${m.isError ? "error" : "ok"} ${m.content.slice(0, 90)}`);
const last = result.messages.at(-1);
console.log(`ended: ${result.haltedReason}; ${last?.role === "assistant" ? last.content : ""}`);
await client.close();
if (result.haltedReason !== "completed" || worst > 0.1 || answers.some((m) => m.isError)) {
  console.error(
    `expected a completed run, every call answered, at most 10% of the schemas per turn; got ${result.haltedReason} and ${(100 * worst).toFixed(1)}%`,
  );
  process.exit(1);
}
