/**
 * First, how well a search finds the tool a model asks for (bench/lib/search-quality.mjs): hit@1,
 * hit@5 and MRR on a 230-tool catalog of SaaS and MCP-style tools, for queries close to a tool's
 * wording and for paraphrases, with BM25F alone and fused with an offline embedding (GloVe
 * word vectors, SIF-weighted: bench/lib/glove-embed.mjs), beside toolrx before issue 47 and the
 * published figures. Ranks, the same on any machine.
 *
 * Then what 200 tools cost a request: the characters of tool definitions (name, description, JSON
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
import { gloveEmbed } from "./lib/glove-embed.mjs";
import { reportTargets } from "./lib/report-targets.mjs";
import { catalogTools, searchQuality } from "./lib/search-quality.mjs";
import { median, quantile } from "./lib/stats.mjs";

// ── Ranking quality ─────────────────────────────────────────────────────────────────────

const f3 = (x) => x.toFixed(3);
const cells = (r) => `${f3(r.hit1)} / ${f3(r.hit5)} / ${f3(r.mrr)}`;
const bm25 = await searchQuality({});
const glove = gloveEmbed();
const hybrid = glove.embed === undefined ? undefined : await searchQuality({ embed: glove.embed });
console.log(
  `Finding the tool asked for: ${bm25.tools} tools in ${toolSearch({ tools: catalogTools() }).groups.length} groups, 40 target tools each asked twice, through the agent loop's search_tools`,
);
console.log(
  "| ranking | exact wording: hit@1 / hit@5 / MRR | paraphrase: hit@1 / hit@5 / MRR | paraphrase: best tool in the target's group | paraphrases answered no tool |",
);
console.log("|---|---|---|---|---|");
const row = (label, r) =>
  console.log(
    `| ${label} | ${cells(r.exact)} | ${cells(r.paraphrase)} | ${f3(r.paraphrase.group1)} | ${r.paraphrase.empty} (groups listed instead: ${r.paraphrase.groupsInstead}) |`,
  );
row("BM25F (default)", bm25);
if (hybrid === undefined) console.log(`| BM25F + GloVe SIF through \`embed\` | not measured: ${glove.reason} | | | |`);
else row("BM25F + GloVe SIF through `embed`, fused by RRF (k = 60)", hybrid);
// toolrx before issue 47 on this catalog (commit 91ed844, same queries): BM25 with a final "s" cut,
// and `embed` ranking alone by cosine over toolrx's processed word list.
console.log("| before: BM25 | 0.975 / 1.000 / 0.988 | 0.200 / 0.275 / 0.220 | 0.350 | 0 |");
console.log("| before: GloVe SIF through `embed` (cosine alone, over toolrx's word lists) | 0.900 / 0.975 / 0.929 | 0.075 / 0.200 / 0.129 | 0.175 | 0 |");
console.log(
  "Published: tool-search-bench (2,347 tools) BM25 hit@5 0.977 exact, 0.186 paraphrased; a small sentence-embedding model 0.767 paraphrased. " +
    "Anthropic's BM25 tool search: the right tool for 64% of Arcade's 4,027-tool tasks. Issue 47's 232-tool catalog: BM25 paraphrase hit@1 0.05, hit@5 0.125, MRR 0.079.",
);
const catalogFull = catalogTools().reduce((n, t) => n + JSON.stringify({ name: t.name, description: t.description, parameters: toolJsonSchema(t) }).length, 0);
const searchOnly = JSON.stringify({ name: bm25.searchTool.name, description: bm25.searchTool.description, parameters: toolJsonSchema(bm25.searchTool) }).length;
console.log(
  `The catalog's search tool, with its ${toolSearch({ tools: catalogTools() }).groups.length} group lines: ${searchOnly.toLocaleString("en-US")} characters, ${((100 * searchOnly) / catalogFull).toFixed(1)}% of the ${catalogFull.toLocaleString("en-US")} of all its tools\n`,
);

// ── Request size and CPU ────────────────────────────────────────────────────────────────

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
    id: "tool-search-paraphrase-hit5",
    target: `toolSearch (BM25F) on a ${bm25.tools}-tool catalog: paraphrased queries whose tool is in the top 5, through search_tools`,
    met: null,
    row: true,
    figure: `hit@5 ${f3(bm25.paraphrase.hit5)}, MRR ${f3(bm25.paraphrase.mrr)} (exact wording: hit@5 ${f3(bm25.exact.hit5)}; before issue 47: 0.275; published BM25: 0.186)`,
  },
  {
    id: "tool-search-paraphrase-hybrid-hit5",
    target: "the same, BM25F fused with an offline GloVe SIF embedding through `embed`",
    met: null,
    row: true,
    figure:
      hybrid === undefined
        ? `not measured: ${glove.reason}`
        : `hit@5 ${f3(hybrid.paraphrase.hit5)}, MRR ${f3(hybrid.paraphrase.mrr)} (exact wording: hit@5 ${f3(hybrid.exact.hit5)}; published small embedding model: 0.767)`,
  },
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
