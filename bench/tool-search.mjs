/**
 * What 200 tools cost a request: the characters of tool definitions (name, description, JSON
 * Schema) sent per turn, with every tool offered and with `toolSearch` deferring all but the
 * search tool, over an agent run that searches once and uses the tools it found. Not a timing:
 * a size, the same on any machine. Target: at most 10% of the full set per turn.
 *
 *   npm run -s build && node bench/tool-search.mjs
 */
import { z } from "zod";
import { defineTool, ok, runAgent, toolJsonSchema, toolSearch } from "../dist/index.js";
import { scriptedModel } from "../dist/testing/index.js";
import { reportTargets } from "./lib/report-targets.mjs";

const topics = ["invoice", "ticket", "repository", "cluster", "database", "calendar", "contact", "document", "spreadsheet", "pipeline"];
const verbs = ["create", "delete", "list", "update", "archive", "export", "import", "share", "lock", "restore"];
const tools = [];
for (const topic of topics)
  for (const verb of verbs)
    for (const n of [1, 2])
      tools.push(
        defineTool({
          name: `${verb}_${topic}_${n}`,
          description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${topic} (API v${n}). Use it when the user asks to ${verb} one or more ${topic}s.`,
          schema: z.object({
            id: z.string().describe(`The ${topic}'s id`),
            owner: z.string().optional().describe("Who owns it"),
            tags: z.array(z.string()).optional().describe("Labels to filter by"),
            dryRun: z.boolean().optional().describe("Report what would change without changing it"),
          }),
          handler: ({ id }) => ok({ id, done: true }),
        }),
      );

const sizeOf = (offered) => offered.reduce((n, t) => n + JSON.stringify({ name: t.name, description: t.description, parameters: toolJsonSchema(t) }).length, 0);

const found = toolSearch({ tools });
const model = scriptedModel([
  [
    { type: "tool_call", call: { id: "s1", name: "search_tools", arguments: { query: "restore a spreadsheet" } } },
    { type: "finish", reason: "tool_calls" },
  ],
  [
    { type: "tool_call", call: { id: "r1", name: "restore_spreadsheet_1", arguments: { id: "q3" } } },
    { type: "finish", reason: "tool_calls" },
  ],
  [
    { type: "text_delta", text: "Restored." },
    { type: "finish", reason: "stop" },
  ],
]);
const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [{ role: "user", content: "Restore spreadsheet q3" }] });
if (result.haltedReason !== "completed") throw new Error(`the run ended ${result.haltedReason}`);

const full = sizeOf(tools);
const perTurn = model.requests.map((r) => sizeOf(r.tools));
const worst = Math.max(...perTurn);
console.log(`200 tools, every one offered: ${full.toLocaleString("en-US")} characters of tool definitions per turn`);
console.log(`with toolSearch, per turn of a 3-turn run: ${perTurn.map((n) => n.toLocaleString("en-US")).join(", ")} characters`);
reportTargets([
  {
    id: "tool-search-request-size",
    target: "tool definitions per turn with deferred loading ≤ 10% of the full set (200 tools)",
    met: worst <= 0.1 * full,
    figure: `${((100 * worst) / full).toFixed(1)}% at most (${worst.toLocaleString("en-US")} of ${full.toLocaleString("en-US")} characters)`,
  },
]);
