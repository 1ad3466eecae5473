/**
 * What 200 tools cost a request: the characters of tool definitions (name, description, JSON
 * Schema) sent per turn, with every tool offered and with `toolSearch` deferring all but the
 * search tool, over an agent run that searches once and uses the tools it found. Not a timing:
 * a size, the same on any machine. Target: at most 10% of the full set per turn.
 *
 * Then a row: what deferring costs in CPU, per turn of a 20-turn run (one search, then a call a
 * turn to a tool it found), against the same run with every tool offered and no `prepareTurn`.
 * Paired rounds in one process (process.cpuUsage), medians with the rounds' 25th–75th percentiles.
 *
 *   npm run -s build && node bench/tool-search.mjs [--quick]
 */
import { z } from "zod";
import { defineTool, ok, runAgent, toolJsonSchema, toolSearch } from "../dist/index.js";
import { scriptedModel } from "../dist/testing/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { median, quantile } from "./lib/stats.mjs";

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

// CPU: the same long run deferred and not. Each turn after the search calls a tool it found.
const TURNS = 20;
const REPEAT = 5;
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || (process.argv.includes("--quick") ? 5 : 25);
const longScript = [
  [
    { type: "tool_call", call: { id: "s1", name: "search_tools", arguments: { query: "restore a spreadsheet" } } },
    { type: "finish", reason: "tool_calls" },
  ],
  ...Array.from({ length: TURNS - 1 }, (_, t) => [
    { type: "text_delta", text: `turn ${t + 1}` },
    { type: "tool_call", call: { id: `r${t}`, name: "restore_spreadsheet_1", arguments: { id: `q${t}` } } },
    { type: "finish", reason: "tool_calls" },
  ]),
];
const goal = [{ role: "user", content: "Restore spreadsheets q0 to q18" }];
async function longRun(deferred) {
  const options = { model: scriptedModel(longScript), tools: found.tools, messages: goal, maxTurns: TURNS };
  const r = await runAgent(deferred ? { ...options, prepareTurn: found.prepareTurn } : options);
  if (r.haltedReason !== "max_turns" || r.messages.some((m) => m.role === "tool" && m.isError)) throw new Error(`the long run ended ${r.haltedReason}`);
}
async function cpu(deferred) {
  const start = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) await longRun(deferred);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REPEAT / TURNS;
}
for (let i = 0; i < 3; i++) for (const d of [true, false]) await cpu(d); // warm up
const deferredTurn = [];
const plainTurn = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [true, false] : [false, true];
  const t = {};
  for (const d of order) t[d] = await cpu(d);
  deferredTurn.push(t.true);
  plainTurn.push(t.false);
}
const added = deferredTurn.map((d, i) => d - plainTurn[i]);
const us = (x) => `${x.toFixed(1)} µs`;
const addedFigure = `+${us(median(added))} per turn (rounds: ${us(quantile(added, 0.25))}–${us(quantile(added, 0.75))}); ${us(median(deferredTurn))} against ${us(median(plainTurn))} a turn with all 201 tools offered`;
console.log(`deferring, CPU per turn of a ${TURNS}-turn run (${rounds} paired rounds): ${addedFigure}`);

reportTargets([
  {
    id: "tool-search-turn-cpu",
    target: `toolSearch's prepareTurn over a ${TURNS}-turn run (200 tools): CPU per turn on top of offering every tool`,
    met: null,
    row: true,
    figure: addedFigure,
  },
  {
    id: "tool-search-request-size",
    target: "tool definitions per turn with deferred loading ≤ 10% of the full set (200 tools)",
    met: worst <= 0.1 * full,
    figure: `${((100 * worst) / full).toFixed(1)}% at most (${worst.toLocaleString("en-US")} of ${full.toLocaleString("en-US")} characters)`,
  },
]);
