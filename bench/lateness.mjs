#!/usr/bin/env node
/**
 * Deadline precision under load: 1,000 never-settling handlers with a 50 ms deadline, all at
 * once; lateness is when each call's `timeout` completes minus its handler's start plus 50 ms.
 * Builds are run alternately, round by round, in one process, each round with a row of one bare
 * `setTimeout` per call and nothing else beside them (the machine's own timer noise in that
 * round): a build's p99 is also given as its excess over that row's, round by round. Fairness:
 * beside each run, one bystander `setTimeout` set for the same moment as the last call's deadline
 * says how long the wake's pass kept the rest of the process waiting. And the garbage
 * collections that fell inside each row's runs (count and pause per run): whether a row's tail is
 * its own GC or the machine's.
 *
 *   node bench/lateness.mjs <dist-dir> [<dist-dir> ...] [--rounds 7]
 */
import { PerformanceObserver } from "node:perf_hooks";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const argv = process.argv.slice(2);
const at = argv.indexOf("--rounds");
const rounds = at === -1 ? 7 : Number(argv[at + 1]);
const dirs = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--rounds");
const builds = await Promise.all(dirs.map(async (dir) => ({ dir, lib: await import(pathToFileURL(resolve(dir, "index.js")).href) })));
const n = 1_000;
const deadline = 50;

function once(lib) {
  const started = new Map();
  const tool = lib.defineTool({
    name: "never",
    description: "",
    schema: z.object({}),
    handler: (_a, ctx) => {
      started.set(ctx.toolCall.id, performance.now());
      return new Promise(() => {});
    },
  });
  const calls = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "never", arguments: {} }));
  const late = [];
  let bystander = 0;
  return new Promise((done) => {
    lib.streamToolCalls(calls, [tool], { maxConcurrency: n, toolTimeout: deadline }).subscribe({
      next: (e) => {
        if (e.type === "tool_execution_completed") late.push(performance.now() - started.get(e.toolCallId) - deadline);
      },
      complete: () => setTimeout(() => done({ late, bystander }), 5),
    });
    const set = performance.now();
    setTimeout(() => (bystander = performance.now() - set - deadline), deadline);
  });
}

/** The same 1,000 waits, each one bare `setTimeout` and nothing else. */
function bare() {
  const late = [];
  return new Promise((done) => {
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      setTimeout(() => {
        late.push(performance.now() - started - deadline);
        if (late.length === n) done({ late, bystander: late[n - 1] });
      }, deadline);
    }
  });
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const rows = [{ dir: "bare setTimeout", run: bare }, ...builds.map((b) => ({ dir: b.dir, run: () => once(b.lib) }))];
const results = rows.map(() => ({ p50: [], p99: [], bystander: [], gcs: 0, gcMs: 0 }));
/** The GCs of the run under way: entries reach the observer later, so each run's window is kept and matched at the end. */
const gcEntries = [];
const gcObserver = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
gcObserver.observe({ entryTypes: ["gc"] });
const windows = [];
for (let r = 0; r < rounds + 1; r++) {
  for (const [i, row] of rows.entries()) {
    const from = performance.now();
    const { late, bystander } = await row.run();
    if (r > 0) {
      windows.push({ i, from, to: performance.now() });
      results[i].p50.push(pct(late, 0.5));
      results[i].p99.push(pct(late, 0.99));
      results[i].bystander.push(bystander);
    }
  }
}
await new Promise((done) => setTimeout(done, 50));
gcObserver.disconnect();
for (const { i, from, to } of windows) {
  for (const gc of gcEntries) {
    if (gc.startTime >= from && gc.startTime < to) {
      results[i].gcs++;
      results[i].gcMs += gc.duration;
    }
  }
}
const f = (x) => x.toFixed(2);
/** The median over rounds, with the rounds' 25th–75th percentile. */
const spread = (xs) => `${f(pct(xs, 0.5))} ms (${f(pct(xs, 0.25))}–${f(pct(xs, 0.75))})`;
console.log(`${n.toLocaleString("en-US")} calls, ${deadline} ms deadline, medians over ${rounds} rounds (25th–75th percentile of the rounds):`);
for (const [i, row] of rows.entries()) {
  const { p50, p99, bystander } = results[i];
  const versus = (xs, ys) => xs.map((x, k) => x - ys[k]);
  const over = i === 0 ? "" : `; p99 over bare's ${spread(versus(p99, results[0].p99))}; a bystander timer late by ${spread(bystander)}`;
  const gc = `; GC per run ${(results[i].gcs / rounds).toFixed(1)}, ${f(results[i].gcMs / rounds)} ms`;
  console.log(`${row.dir}: lateness median ${spread(p50)}, p99 ${spread(p99)}${over}${gc}`);
}
