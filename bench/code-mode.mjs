#!/usr/bin/env node
/**
 * toolrx/code-mode: what a script's nested calls and its sandbox cost.
 *
 *   npm run build && node bench/code-mode.mjs [--quick] [--rounds 5]
 *
 * 1. Start-up: a sandbox thread started and QuickJS loaded (`warm()`), and a trivial script
 *    (`return 1`) on a warm thread, through `runToolCalls`: wall ms, median of rounds.
 * 2. A script of 100 sequential nested calls of a trivial tool: wall ms and process CPU ms
 *    (all threads), median of rounds.
 * 3. A nested call's cost over a direct call of the same tool: (2. − a script of 0 calls) / 100,
 *    against one direct `runToolCalls` of that tool, one at a time: CPU µs and wall µs per call.
 *
 * Target (code-mode-overhead): a nested call adds at most 1 ms of CPU over a direct call (3.).
 */
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../dist/index.js";
import { codeMode } from "../dist/code-mode/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { cpuMs, median, round } from "./lib/stats.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const at = argv.indexOf("--rounds");
const rounds = at >= 0 ? Number(argv[at + 1]) : quick ? 3 : 5;
const N = 100;

const echo = defineTool({ name: "echo", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });

async function timed(fn) {
  const cpu = cpuMs();
  const wall = performance.now();
  await fn();
  return { cpu: cpuMs() - cpu, wall: performance.now() - wall };
}

async function script(tool, text) {
  const result = await runToolCalls([{ id: "s", name: tool.name, arguments: { script: text } }], [tool], { toolTimeout: 60_000 });
  const message = result.messages[0];
  if (message?.isError) throw new Error(`the bench's script failed: ${message.content}`);
}

// 1. Start-up
const starts = [];
for (let r = 0; r < rounds; r++) {
  const code = codeMode({ tools: [echo] });
  starts.push(await timed(() => code.warm()));
  await code.close();
}
const code = codeMode({ tools: [echo], limits: { maxCalls: N, cpuMs: 10_000 } });
await code.warm();
for (let i = 0; i < 20; i++) await script(code.tool, "return 1;"); // warm-up
const trivial = [];
for (let r = 0; r < rounds * 4; r++) trivial.push(await timed(() => script(code.tool, "return 1;")));

// 2. and 3. A script of N nested calls, one of none, and N direct calls
const LOOP = `let s = 0; for (let i = 0; i < ${N}; i++) s += await tools.echo({ i }); return s;`;
for (let i = 0; i < 3; i++) await script(code.tool, LOOP); // warm-up
for (let i = 0; i < 200; i++) await runToolCalls([{ id: "d", name: "echo", arguments: { i } }], [echo]);
const nested = [];
const empty = [];
const direct = [];
for (let r = 0; r < rounds; r++) {
  nested.push(await timed(() => script(code.tool, LOOP)));
  empty.push(await timed(() => script(code.tool, "let s = 0; return s;")));
  direct.push(
    await timed(async () => {
      for (let i = 0; i < N; i++) await runToolCalls([{ id: `d${i}`, name: "echo", arguments: { i } }], [echo]);
    }),
  );
}
await code.close();

const med = (runs, key) => median(runs.map((t) => t[key]));
const perNested = { cpu: ((med(nested, "cpu") - med(empty, "cpu")) * 1000) / N, wall: ((med(nested, "wall") - med(empty, "wall")) * 1000) / N };
const perDirect = { cpu: (med(direct, "cpu") * 1000) / N, wall: (med(direct, "wall") * 1000) / N };
const added = { cpu: round(perNested.cpu - perDirect.cpu, 1), wall: round(perNested.wall - perDirect.wall, 1) };

console.log("\ntoolrx/code-mode");
console.table([
  { what: "sandbox thread start-up (warm())", wallMs: round(med(starts, "wall"), 1), cpuMs: round(med(starts, "cpu"), 1) },
  { what: "trivial script (return 1), warm thread", wallMs: round(med(trivial, "wall"), 2), cpuMs: round(med(trivial, "cpu"), 2) },
  { what: `script of ${N} sequential nested calls`, wallMs: round(med(nested, "wall"), 1), cpuMs: round(med(nested, "cpu"), 1) },
  { what: `${N} direct runToolCalls, one at a time`, wallMs: round(med(direct, "wall"), 1), cpuMs: round(med(direct, "cpu"), 1) },
]);
console.log(
  `per call: nested ${round(perNested.cpu, 1)} µs CPU / ${round(perNested.wall, 1)} µs wall; direct ${round(perDirect.cpu, 1)} µs CPU / ${round(perDirect.wall, 1)} µs wall`,
);

reportTargets([
  {
    id: "code-mode-overhead",
    target: "a nested call of a script (toolrx/code-mode) adds ≤ 1 ms of CPU over a direct call",
    met: added.cpu <= 1000,
    figure: `${added.cpu} µs of CPU (all threads) and ${added.wall} µs of wall time added per sequential nested call; a script of ${N} nested calls takes ${round(med(nested, "wall"), 1)} ms wall, ${round(med(nested, "cpu"), 1)} ms CPU; a thread starts in ${round(med(starts, "wall"), 1)} ms`,
  },
]);
