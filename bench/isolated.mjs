#!/usr/bin/env node
/**
 * toolrx/node: what running a handler in a worker thread costs, and what it buys.
 *
 *   npm run build && node bench/isolated.mjs [--quick] [--rounds 7]
 *
 * 1. Per-call overhead: the same trivial handler isolated (pool of 1) and in-process, one call at
 *    a time: process CPU µs per call (all threads) and wall µs per call, median of rounds.
 * 2. Throughput with pools of 1, 2 and 4, on a trivial handler and a 5 ms CPU-bound one:
 *    calls per second (wall) and CPU µs per call, with the runner's limit at the pool's size.
 * 3. How late a deadline fires for a handler stuck in `for(;;)`: time from the call's start to
 *    its `timeout` answer, minus the deadline (in-process such a handler never answers).
 *
 * Target (isolated-overhead): isolation adds at most 40 µs of CPU per call (1.).
 */
import { availableParallelism } from "node:os";
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../dist/index.js";
import { workerPool } from "../dist/node/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { cpuMs, median, quantile, round } from "./lib/stats.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const at = argv.indexOf("--rounds");
const rounds = at >= 0 ? Number(argv[at + 1]) : quick ? 3 : 7;
const module = new URL("./lib/isolated-handlers.mjs", import.meta.url);
const schema = z.object({ i: z.number() }).loose();
const calls = (n, name, extra = {}) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name, arguments: { i, ...extra } }));

async function timed(fn) {
  const cpu = cpuMs();
  const wall = performance.now();
  await fn();
  return { cpu: cpuMs() - cpu, wall: performance.now() - wall };
}

/** Run `n` calls one at a time (each waits for the last): the latency a single call pays. */
async function sequential(tool, executor, n) {
  for (const c of calls(n, tool.name)) await runToolCalls([c], [tool], { toolExecutor: executor });
}

// 1. Per-call overhead
const n1 = quick ? 500 : 3_000;
const pool1 = workerPool({ size: 1, spares: 0 });
await pool1.warm();
const isolated = pool1.tool({ name: "echo", description: "", schema, module, export: "echo" });
const inProcess = defineTool({ name: "echo", description: "", schema, handler: ({ i }) => ok(i) });
await sequential(isolated, pool1, 200); // warm-up: the module is loaded, the JIT has seen the paths
await sequential(inProcess, undefined, 200);
const iso = [];
const local = [];
for (let r = 0; r < rounds; r++) {
  iso.push(await timed(() => sequential(isolated, pool1, n1)));
  local.push(await timed(() => sequential(inProcess, undefined, n1)));
}
await pool1.close();
const perCall = (runs, key) => median(runs.map((t) => (t[key] * 1000) / n1));
const overhead = [
  { handler: "in-process", cpuUs: round(perCall(local, "cpu"), 1), wallUs: round(perCall(local, "wall"), 1) },
  { handler: "isolated (pool of 1)", cpuUs: round(perCall(iso, "cpu"), 1), wallUs: round(perCall(iso, "wall"), 1) },
];
const added = { cpuUs: round(overhead[1].cpuUs - overhead[0].cpuUs, 1), wallUs: round(overhead[1].wallUs - overhead[0].wallUs, 1) };
console.log(`\n1. Per-call overhead, ${n1} sequential calls, median of ${rounds} rounds (CPU: all threads of the process)`);
console.table([...overhead, { handler: "added by isolation", ...added }]);

// 2. Throughput
const throughput = [];
for (const [label, name, n, extra] of [
  ["trivial", "echo", quick ? 1_000 : 5_000, {}],
  ["5 ms CPU", "burn", quick ? 40 : 200, { ms: 5 }],
]) {
  for (const size of [1, 2, 4]) {
    const pool = workerPool({ size, spares: 0 });
    await pool.warm();
    const tool = pool.tool({ name, description: "", schema, module, export: name });
    const batch = calls(n, name, extra);
    await runToolCalls(batch.slice(0, Math.min(50, n)), [tool], { toolExecutor: pool });
    const runs = [];
    for (let r = 0; r < rounds; r++) runs.push(await timed(() => runToolCalls(batch, [tool], { toolExecutor: pool, toolTimeout: 60_000 })));
    await pool.close();
    throughput.push({
      handler: label,
      pool: size,
      calls: n,
      "calls/s": Math.round(median(runs.map((t) => n / (t.wall / 1000)))),
      "CPU µs/call": round(median(runs.map((t) => (t.cpu * 1000) / n)), 1),
    });
  }
}
console.log(`\n2. Throughput, median of ${rounds} rounds (${availableParallelism()} cores)`);
console.table(throughput);

// 3. Deadline lateness for a stuck handler
const deadlineMs = 50;
const pool3 = workerPool({ size: 1, spares: 1, grace: 10 });
await pool3.warm();
const stuck = pool3.tool({ name: "forever", description: "", schema, module, export: "forever" });
const lateness = [];
for (let r = 0; r < (quick ? 5 : 30); r++) {
  const start = performance.now();
  const { messages } = await runToolCalls(calls(1, "forever"), [stuck], { toolExecutor: pool3, toolTimeout: deadlineMs });
  lateness.push(performance.now() - start - deadlineMs);
  if (!messages[0].content.includes("timeout")) throw new Error(`expected a timeout, got ${messages[0].content}`);
  while (pool3.stats().idle < 2) await new Promise((resolve) => setTimeout(resolve, 5)); // its replacement is ready
}
await pool3.close();
console.log(`\n3. A handler stuck in for(;;) under toolTimeout ${deadlineMs} ms: answered this late (ms)`);
console.table([{ runs: lateness.length, median: round(median(lateness), 2), p90: round(quantile(lateness, 0.9), 2), max: round(Math.max(...lateness), 2) }]);

reportTargets([
  {
    id: "isolated-overhead",
    target: "an isolated call (toolrx/node) adds ≤ 40 µs of CPU per call",
    met: added.cpuUs <= 40,
    figure: `${added.cpuUs} µs of CPU (all threads) and ${added.wallUs} µs of wall time added per sequential call`,
  },
]);
