#!/usr/bin/env node
/**
 * toolrx/node against its bare engine: the same trivial handler run in worker threads by toolrx
 * (`runToolCalls` with a `workerPool`: the runner, deadlines, aborts, the codec), by a bare
 * `worker_threads` pool (bench/lib/bare-pool.mjs: post and answer, nothing else) and by piscina,
 * the pool a user would otherwise pick. CPU time of the whole process (every thread) per call
 * and calls per second, in alternating rounds within one process, as paired ratios (median of
 * the rounds, with the 25th–75th percentiles as the spread).
 *
 *   npm run build && node bench/isolated.mjs [--quick] [--rounds 15] [--against <an older build's dist/>]
 *
 * `--against` adds that build's toolrx to the same alternating rounds (`toolrx-before`), and
 * prints this build's ratios to it: two builds paired in one process, as bench/paired.mjs does.
 *
 * 1. One call at a time on a pool of 1 thread: what a single call pays.
 * 2. 64 calls in flight over a pool of 2 threads: what a busy pool sustains.
 * Each scenario also runs `toolrx-worker` (bench/lib/protocol-pool.mjs: toolrx's worker thread
 * driven by the bare pool's host) and `in-process` (the same `runToolCalls` of an in-process tool
 * answering through a settled promise: the runner alone), and splits toolrx's excess over the bare
 * pool into its worker and messages (toolrx-worker ÷ bare), the runner (in-process) and the pool's
 * own rest on the calling thread (toolrx − toolrx-worker − in-process).
 *
 * 4. The same as 2., each call answering a 70-value object (bench/lib/isolated-handlers.mjs' `record`):
 *    what the codec costs a result that is data rather than one number. A row, not a target.
 * 3. (not in --quick) A handler stuck in for(;;) under a 50 ms deadline: how late it is answered,
 *    and the CPU the process burns in the 100 ms after its thread is killed.
 *
 * Targets: (isolated-1) toolrx ≤ 1.1× the CPU per call of the bare pool plus the runner in-process
 * and ≥ 0.9× their throughput: at 1 in flight a whole one-call `runToolCalls` runs in series with
 * each round trip, and its cost is the core's own row, not the isolation's (docs/benchmarks.md);
 * (isolated-64) toolrx ≤ 1.25× the bare pool's CPU per call and ≥ 0.9× its throughput;
 * (isolated-piscina-64) at least as good as piscina on both; (isolated-piscina-1) ≤ 1.1× piscina's CPU
 * per call and ≥ 0.9× its throughput: piscina's idle thread blocks in `Atomics.wait` and runs nothing
 * a call left behind, toolrx's stays on its event loop so that it does (docs/isolation.md), and that
 * alone is 1.15–1.19× the CPU of the same build blocking as piscina does (docs/benchmarks.md).
 * Every system first runs WARM calls unmeasured: the JIT's warm-up is not in the rounds.
 */
import { Piscina } from "piscina";
import { z } from "zod";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { runToolCalls } from "../dist/index.js";
import { workerPool } from "../dist/node/index.js";
import { BarePool } from "./lib/bare-pool.mjs";
import { lineItems } from "./lib/isolated-handlers.mjs";
import { ProtocolPool } from "./lib/protocol-pool.mjs";
import { reportTargets } from "./lib/report-targets.mjs";
import { cpuMs, median, quantile, round } from "./lib/stats.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const at = argv.indexOf("--rounds");
const ROUNDS = at >= 0 ? Number(argv[at + 1]) : quick ? 3 : 15;
/** Calls each system runs before the rounds that count (see the warm-up in `scenario`). */
const WARM = quick ? 2_000 : 24_000;
const against = argv.indexOf("--against");
const older =
  against < 0
    ? undefined
    : await Promise.all(["index.js", "node/index.js"].map((file) => import(pathToFileURL(resolve(argv[against + 1], file)).href))).then(([lib, node]) => ({
        runToolCalls: lib.runToolCalls,
        workerPool: node.workerPool,
      }));
const module = new URL("./lib/isolated-handlers.mjs", import.meta.url);
const schema = z.object({ i: z.number() }).loose();

/** Keep `window` calls of `one` in flight until `n` have answered; each answer must be its own `i`. */
async function windowed(n, window, one) {
  let next = 0;
  let answered = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const value = await one(i);
      if (value !== i) throw new Error(`bench: call ${i} answered ${JSON.stringify(value)}`);
      answered++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, n) }, lane));
  if (answered !== n) throw new Error(`bench: ${answered} answers for ${n} calls`);
}

/** The three systems over pools of `size` threads, each run as `n` calls with `inFlight` in flight. */
async function systems(size, inFlight, handler) {
  const toolrx = await toolrxOf({ runToolCalls, workerPool }, size, inFlight, handler);
  const toolrxBefore = older === undefined ? undefined : await toolrxOf(older, size, inFlight, handler);
  const own = handler === "echo" ? (value) => value : (value) => value.i;
  const worker = new ProtocolPool(new URL("../dist/", import.meta.url), size, module.href, handler);
  await worker.ready;
  const bare = new BarePool(size);
  const piscina = new Piscina({
    filename: new URL("./lib/piscina-handlers.mjs", import.meta.url).href,
    minThreads: size,
    maxThreads: size,
    idleTimeout: 60_000,
  });
  const inProcess = inProcessOf(inFlight, handler);
  return {
    run: {
      toolrx: toolrx.run,
      "in-process": inProcess,
      ...(toolrxBefore !== undefined && { "toolrx-before": toolrxBefore.run }),
      bare: async (n) => {
        const before = bare.answered;
        await windowed(n, inFlight, async (i) => own(await bare.run({ i }, handler)));
        if (bare.answered - before !== n) throw new Error(`bench: the bare pool answered ${bare.answered - before} of ${n} calls`);
      },
      "toolrx-worker": (n) => windowed(n, inFlight, async (i) => own(await worker.run({ i }))),
      piscina: (n) => windowed(n, inFlight, async (i) => own(await piscina.run({ i }, { name: handler }))),
    },
    close: () => Promise.all([toolrx.close(), toolrxBefore?.close(), bare.close(), worker.close(), piscina.destroy()]),
  };
}

/**
 * The runner alone: the same `runToolCalls` (one call per batch at 1 in flight, one batch at 64)
 * of an in-process tool answering the same value through a settled promise, as a pool's answer
 * arrives. What toolrx's runner costs a call whatever its executor; the core's own rows track it.
 */
function inProcessOf(inFlight, handler) {
  const answer = handler === "echo" ? (i) => i : lineItems;
  const tool = { name: "echo", description: "", schema, handler: async ({ i }) => ({ type: "ok", value: answer(i) }) };
  const own = handler === "echo" ? Number : (content) => JSON.parse(content).i;
  if (inFlight === 1)
    return (n) =>
      windowed(n, 1, async (i) => {
        const { messages } = await runToolCalls([{ id: `c${i}`, name: "echo", arguments: { i } }], [tool]);
        return own(messages[0].content);
      });
  return async (n) => {
    const batch = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "echo", arguments: { i } }));
    const { messages } = await runToolCalls(batch, [tool], { maxConcurrency: inFlight, toolTimeout: 60_000 });
    if (messages.length !== n || messages.some((m, i) => own(m.content) !== i)) throw new Error("bench: in-process did not answer every call once");
  };
}

/** toolrx of one build (`runToolCalls` and `workerPool` of its dist): a pool of `size` threads and its run of `n` calls of `handler`. */
async function toolrxOf(build, size, inFlight, handler) {
  const pool = build.workerPool({ size, spares: 0 });
  await pool.warm();
  const tool = pool.tool({ name: "echo", description: "", schema, module, export: handler });
  const own = handler === "echo" ? Number : (content) => JSON.parse(content).i;
  const answer = (message) => (message.isError ? message.content : own(message.content));
  const run =
    inFlight === 1
      ? (n) =>
          windowed(n, 1, async (i) => {
            const { messages } = await build.runToolCalls([{ id: `c${i}`, name: "echo", arguments: { i } }], [tool], { toolExecutor: pool });
            return answer(messages[0]);
          })
      : async (n) => {
          const batch = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "echo", arguments: { i } }));
          const { messages } = await build.runToolCalls(batch, [tool], { toolExecutor: pool, maxConcurrency: inFlight, toolTimeout: 60_000 });
          if (messages.length !== n || messages.some((m, i) => answer(m) !== i))
            throw new Error("bench: toolrx did not answer every call once, with its own value");
        };
  return { run, close: () => pool.close() };
}

async function timed(fn) {
  const cpu = cpuMs();
  const wall = performance.now();
  await fn();
  return { cpu: cpuMs() - cpu, wall: performance.now() - wall };
}

const ratio = (x) => `${x.median}× (rounds: ${x.p25}–${x.p75}×)`;
const spread = (xs) => ({ median: round(median(xs), 2), p25: round(quantile(xs, 0.25), 2), p75: round(quantile(xs, 0.75), 2) });

/** Alternating rounds of the three systems; per-call figures and paired ratios against bare and piscina. */
async function scenario(label, size, inFlight, n, handler = "echo") {
  const { run, close } = await systems(size, inFlight, handler);
  const names = Object.keys(run);
  // Warm-up to the JIT's steady state before any round counts: toolrx's paths take V8 some
  // 5,000 calls (1 in flight) to 20,000 (64 in flight) to optimise, and the compiler's own
  // threads burn 5–13 µs a call meanwhile (per-thread CPU from /proc/self/task; gone with
  // --no-concurrent-recompilation). A 1,000-call warm-up left that in the first rounds, whose
  // CPU and throughput then swung with how many of them a run's median took in.
  for (let warmed = 0; warmed < WARM; warmed += n) for (const name of names) await run[name](Math.min(n, WARM - warmed));
  const got = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let s = 0; s < names.length; s++) {
      const name = names[(s + r) % names.length];
      got[name].push(await timed(() => run[name](n)));
    }
  }
  await close();
  const rows = names.map((name) => ({
    system: name,
    threads: size,
    "in flight": inFlight,
    calls: n,
    "CPU µs/call": round(median(got[name].map((t) => (t.cpu * 1000) / n)), 1),
    "calls/s": Math.round(median(got[name].map((t) => n / (t.wall / 1000)))),
  }));
  const paired = (other) => ({
    cpu: spread(got.toolrx.map((t, r) => t.cpu / got[other][r].cpu)),
    throughput: spread(got.toolrx.map((t, r) => got[other][r].wall / t.wall)),
  });
  console.log(`\n${label}: ${n} calls per round, median of ${ROUNDS} alternating rounds (CPU: every thread of the process)`);
  console.table(rows);
  const result = { rows, bare: paired("bare"), piscina: paired("piscina") };
  // Where toolrx's excess over the bare pool is: in its worker and messages, or in the calling thread.
  const part = (a, b) => ({ cpu: spread(got[a].map((t, r) => t.cpu / got[b][r].cpu)), throughput: spread(got[a].map((t, r) => got[b][r].wall / t.wall)) });
  const [workerPart, hostPart] = [part("toolrx-worker", "bare"), part("toolrx", "toolrx-worker")];
  console.log(`toolrx's worker and messages (toolrx-worker ÷ bare): CPU ${ratio(workerPart.cpu)}, throughput ${ratio(workerPart.throughput)}`);
  console.log(`the calling thread's runner and pool (toolrx ÷ toolrx-worker): CPU ${ratio(hostPart.cpu)}, throughput ${ratio(hostPart.throughput)}`);
  // The calling thread's part, split: the runner (what it costs in-process) and the pool's own rest.
  const perCall = (name, r) => (got[name][r].cpu * 1000) / n;
  const runnerUs = median(got["in-process"].map((t) => (t.cpu * 1000) / n));
  const poolUs = median(got.toolrx.map((_, r) => perCall("toolrx", r) - perCall("toolrx-worker", r) - perCall("in-process", r)));
  console.log(
    `of which the runner (in-process, CPU µs/call): ${round(runnerUs, 1)}; the pool's own (toolrx − toolrx-worker − in-process): ${round(poolUs, 1)} µs/call`,
  );
  // The isolation's own cost: toolrx against the bare round trip plus the runner's in-process work, round by round.
  const beyond = {
    cpu: spread(got.toolrx.map((t, r) => t.cpu / (got.bare[r].cpu + got["in-process"][r].cpu))),
    throughput: spread(got.toolrx.map((t, r) => (got.bare[r].wall + got["in-process"][r].wall) / t.wall)),
  };
  console.log(`toolrx ÷ (bare + in-process): CPU ${ratio(beyond.cpu)}, throughput ${ratio(beyond.throughput)}`);
  result.beyond = beyond;
  if (got["toolrx-before"] === undefined) return result;
  const vsBefore = paired("toolrx-before");
  console.log(`this build against ${argv[against + 1]}: CPU ${ratio(vsBefore.cpu)}, throughput ${ratio(vsBefore.throughput)}`);
  return { ...result, before: vsBefore };
}

const one = await scenario("1. One call at a time, 1 thread", 1, 1, quick ? 300 : 2_000);
const busy = await scenario("2. 64 calls in flight, 2 threads", 2, 64, quick ? 500 : 2_000);
const objects = await scenario("4. 64 calls in flight, 2 threads, each answering a 70-value object", 2, 64, quick ? 500 : 2_000, "record");

const vsBare = (id, label, s) => ({
  id,
  target: `isolated calls, ${label}: ≤ 1.25× a bare worker_threads pool's CPU per call, ≥ 0.9× its throughput`,
  met: s.bare.cpu.median <= 1.25 && s.bare.throughput.median >= 0.9,
  figure: `CPU ${ratio(s.bare.cpu)}, throughput ${ratio(s.bare.throughput)}`,
});
const vsPiscina = (id, label, s) => ({
  id,
  target: `isolated calls, ${label}: at least as good as piscina in CPU per call and throughput`,
  met: s.piscina.cpu.median <= 1 && s.piscina.throughput.median >= 1,
  figure: `CPU ${ratio(s.piscina.cpu)}, throughput ${ratio(s.piscina.throughput)}`,
});

if (!quick) await stuck();

reportTargets([
  {
    id: "isolated-1",
    target:
      "isolated calls, 1 in flight, 1 thread: ≤ 1.1× the CPU per call of a bare worker_threads pool's round trip plus toolrx's runner in-process (a one-call runToolCalls), ≥ 0.9× their throughput (restated from ≤ 1.25× and ≥ 0.9× of the bare pool alone: the runner's per-batch work is in series at 1 in flight and is the core's own row, see docs/benchmarks.md)",
    met: one.beyond.cpu.median <= 1.1 && one.beyond.throughput.median >= 0.9,
    figure: `CPU ${ratio(one.beyond.cpu)}, throughput ${ratio(one.beyond.throughput)}; against the bare pool alone CPU ${ratio(one.bare.cpu)}, throughput ${ratio(one.bare.throughput)}`,
  },
  vsBare("isolated-64", "64 in flight, 2 threads", busy),
  {
    id: "isolated-piscina-1",
    target:
      "isolated calls, 1 in flight, 1 thread: ≤ 1.1× piscina's CPU per call, ≥ 0.9× its throughput (restated from at least as good: piscina's idle thread blocks in Atomics.wait and runs nothing a call left behind until its next call; toolrx's waits on its event loop so that a call's timers, sockets and output go on, which costs 1.15–1.19× the CPU of the same build blocking as piscina does, see docs/benchmarks.md)",
    met: one.piscina.cpu.median <= 1.1 && one.piscina.throughput.median >= 0.9,
    figure: `CPU ${ratio(one.piscina.cpu)}, throughput ${ratio(one.piscina.throughput)}`,
  },
  vsPiscina("isolated-piscina-64", "64 in flight, 2 threads", busy),
  {
    id: "isolated-64-objects",
    target: "isolated calls, 64 in flight, 2 threads, a 70-value object per answer: CPU per call and throughput against a bare worker_threads pool",
    met: null,
    row: true,
    figure: `CPU ${ratio(objects.bare.cpu)}, throughput ${ratio(objects.bare.throughput)}; against piscina CPU ${ratio(objects.piscina.cpu)}, throughput ${ratio(objects.piscina.throughput)}`,
  },
]);

/** 3. A stuck handler: how late its timeout is answered, and what the process burns after its thread is killed. */
async function stuck() {
  const deadlineMs = 50;
  const pool = workerPool({ size: 1, spares: 1, grace: 10 });
  await pool.warm();
  const tool = pool.tool({ name: "forever", description: "", schema, module, export: "forever" });
  const lateness = [];
  const after = [];
  for (let r = 0; r < 30; r++) {
    const start = performance.now();
    const { messages } = await runToolCalls([{ id: "c", name: "forever", arguments: { i: 0 } }], [tool], { toolExecutor: pool, toolTimeout: deadlineMs });
    lateness.push(performance.now() - start - deadlineMs);
    if (!messages[0].content.includes("timeout")) throw new Error(`expected a timeout, got ${messages[0].content}`);
    while (pool.stats().idle < 2) await new Promise((resolve) => setTimeout(resolve, 5)); // its replacement is ready
    // The stuck thread was killed 10 ms after the deadline: what runs in the next 100 ms.
    const cpu = cpuMs();
    await new Promise((resolve) => setTimeout(resolve, 100));
    after.push(cpuMs() - cpu);
  }
  await pool.close();
  console.log(`\n3. A handler stuck in for(;;) under toolTimeout ${deadlineMs} ms, grace 10 ms (30 runs)`);
  console.table([
    { figure: "answered late by (ms)", median: round(median(lateness), 2), p90: round(quantile(lateness, 0.9), 2), max: round(Math.max(...lateness), 2) },
    {
      figure: "CPU ms in the 100 ms after its replacement is ready",
      median: round(median(after), 2),
      p90: round(quantile(after, 0.9), 2),
      max: round(Math.max(...after), 2),
    },
  ]);
}
