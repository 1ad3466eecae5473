#!/usr/bin/env node
/**
 * The journal's cost: the agent loop (`runAgent`, a scripted model of TURNS turns × CALLS calls)
 * without a journal, with `MemoryJournalStore`, and with `RedisJournalStore` (our own
 * `redis-server` on a free port, or REDIS_URL; skipped with a line when neither is there).
 *
 * In memory: CPU time (process.cpuUsage), paired rounds in one process, each round running the
 * loop with and without the journal in alternating order, at 10 and at 1 call per turn; the cost
 * of a call is the difference between the two sizes per call, the cost of a turn what is left at
 * 1 call. On Redis, wall time per call and per turn (the journal waits for Redis: a call's record
 * is durable before it starts). Medians over the rounds.
 *
 *   npm run bench:journal              (builds first; imports dist/)
 *   node bench/journal.mjs --rounds 30
 *   node bench/journal.mjs --quick     (5 rounds)
 *
 * Target: the in-memory journal adds at most 10% to the loop's cost per call. Beside it, the
 * floor: the loop without a journal whose tool makes and keeps, for the run, the two records any
 * in-memory journal must (a call's before it runs, its outcome after), so that what the journal
 * costs over keeping them shows apart (issue 46: the keeping is not where its cost is).
 */
import { spawn, spawnSync } from "node:child_process";
import { PerformanceObserver } from "node:perf_hooks";
import { createServer } from "node:net";
import { z } from "zod";
import { defineTool, MemoryJournalStore, ok, runAgent } from "../dist/index.js";
import { scriptedModel } from "../dist/testing/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { quantile } from "./lib/stats.mjs";

const TURNS = 50;
const CALLS = 10;
const argv = process.argv;
/**
 * Runs per measured window. A 10-call window of 10 runs held 0–2 scavenges (mean 1.1; a 1-call
 * window 0–1) and a scavenge took 1–7 ms against a window's 4–12 ms of CPU on a loaded machine:
 * the per-call marginal, a difference of two windows, moved with where a GC landed (issue 46's
 * seventh round, `gcs` below). 200 runs (about 0.1–0.2 s of CPU) hold 4–22, and the rounds'
 * quartiles narrowed from 0.52–1.55× to 1.11–1.21× and 1.17–1.30× in two runs; 30 runs (0–4 GCs)
 * did not. `--quick` runs 30.
 */
const REPEAT = argv.includes("--repeat") ? Number(argv[argv.indexOf("--repeat") + 1]) : argv.includes("--quick") ? 30 : 200;
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || (process.argv.includes("--quick") ? 5 : 25);

const echo = defineTool({ name: "echo", description: "", schema: z.object({ n: z.number() }), handler: ({ n }) => ok({ n }) });
/**
 * The floor: what any in-memory journal must also do for a call, done inside the loop without a
 * journal: a record of the call made before it runs and an outcome record after, both kept until
 * the run ends (shaped as toolrx's, so the heap holds the same). Run as the same loop's tool.
 */
let kept = [];
const recording = defineTool({
  name: "echo",
  description: "",
  schema: z.object({ n: z.number() }),
  // Both records point at what the run keeps anyway (the call), as the journal's do (the call, its tool message).
  handler: (input, ctx) => {
    kept.push({ type: "call", turn: 0, phase: "model", call: ctx.toolCall, text: "" });
    kept.push({ type: "outcome", turn: 0, phase: "model", message: ctx.toolCall });
    return ok({ n: input.n });
  },
});
const messages = [{ role: "user", content: "go" }];
function script(calls) {
  return Array.from({ length: TURNS }, (_, t) => [
    { type: "text_delta", text: `turn ${t}` },
    ...Array.from({ length: calls }, (_, c) => ({ type: "tool_call", call: { id: `t${t}c${c}`, name: "echo", arguments: { n: c } } })),
    { type: "finish", reason: "tool_calls" },
  ]);
}
const scripts = { [CALLS]: script(CALLS), 1: script(1) };

let keys = 0;
const FLOOR = Symbol("floor");
async function loop(calls, store) {
  const journal = store === undefined || store === FLOOR ? undefined : { store, conversationKey: `bench-${keys++}`, retainMs: 0 };
  kept = [];
  const tools = [store === FLOOR ? recording : echo];
  const result = await runAgent({ model: scriptedModel(scripts[calls]), tools, messages, maxTurns: TURNS, ...(journal ? { journal } : {}) });
  if (result.haltedReason !== "max_turns" || result.messages.length !== 1 + TURNS * (1 + calls)) throw new Error(`loop: ${result.haltedReason}`);
}

/** Each GC's start, and each measured window's span, so that the GCs in a window can be counted at the end. */
const gcStarts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcStarts.push(e.startTime);
}).observe({ entryTypes: ["gc"] });
const windows = [];
async function cpu(fn) {
  const t0 = performance.now();
  const start = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) await fn();
  const used = process.cpuUsage(start);
  windows.push([t0, performance.now()]);
  return (used.user + used.system) / REPEAT;
}
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const memory = new MemoryJournalStore();
const systems = { plain: () => undefined, memory: () => memory, floor: () => FLOOR };
const rows = { plain10: [], plain1: [], memory10: [], memory1: [], floor10: [], floor1: [] };
/** Per round: the journal's cost per call over the loop's (marginal, 10 against 1 call a turn), and over a whole run; and per call over the floor's. */
const ratios = { perCall: [], perRun: [], overFloor: [] };
for (let i = 0; i < 3; i++) for (const s of Object.values(systems)) await loop(CALLS, s()); // warm up
for (let r = 0; r < rounds; r++) {
  const order = [
    ["plain", "memory", "floor"],
    ["floor", "memory", "plain"],
    ["memory", "floor", "plain"],
  ][r % 3];
  for (const name of order) {
    rows[`${name}10`].push(await cpu(() => loop(CALLS, systems[name]())));
    rows[`${name}1`].push(await cpu(() => loop(1, systems[name]())));
  }
  const last = (k) => rows[k].at(-1);
  ratios.perCall.push((last("memory10") - last("memory1")) / (last("plain10") - last("plain1")));
  ratios.perRun.push(last("memory10") / last("plain10"));
  ratios.overFloor.push((last("memory10") - last("memory1")) / (last("floor10") - last("floor1")));
}
const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
const perCall = (name) => (m[`${name}10`] - m[`${name}1`]) / (TURNS * (CALLS - 1));
const perTurn = (name) => m[`${name}1`] / TURNS - perCall(name);
await new Promise((r) => setTimeout(r, 20)); // the last GC entries arrive
const gcs = windows.map(([t0, t1]) => gcStarts.filter((t) => t >= t0 && t < t1).length);
console.log(
  `journal bench: ${TURNS} turns × ${CALLS} calls (and × 1), ${rounds} paired rounds of ${REPEAT} runs a window, CPU time, medians, Node ${process.version}\n`,
);
console.log("                      per call     per turn");
const labels = { plain: "no journal", memory: "in memory ", floor: "floor     " };
for (const name of ["plain", "memory", "floor"])
  console.log(`  ${labels[name]}        ${perCall(name).toFixed(2).padStart(7)} µs   ${perTurn(name).toFixed(2).padStart(7)} µs`);
console.log("  (floor: no journal, each call's two records made and kept for the run, as any in-memory journal must)");
const ratio = median(ratios.perCall);
const runRatio = median(ratios.perRun);
const spread = (xs) => `${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}×`;
const floorRatio = median(ratios.overFloor);
console.log(`  GCs per window: ${Math.min(...gcs)}–${Math.max(...gcs)} (mean ${(gcs.reduce((a, b) => a + b, 0) / gcs.length).toFixed(1)})`);
console.log(
  `\n  in-memory journal per call, from the medians: ${(perCall("memory") / perCall("plain")).toFixed(3)}×\n  in-memory journal per call: ${ratio.toFixed(3)}× the loop without it (rounds: ${spread(ratios.perCall)}), ${floorRatio.toFixed(3)}× the floor (rounds: ${spread(ratios.overFloor)}); a whole run at ${CALLS} calls a turn: ${runRatio.toFixed(3)}× (rounds: ${spread(ratios.perRun)}); per turn: +${(perTurn("memory") - perTurn("plain")).toFixed(1)} µs`,
);

const targets = [
  {
    id: "journal-overhead",
    target: "in-memory journal ≤ 1.10× the loop per call",
    met: ratio <= 1.1,
    figure: `${ratio.toFixed(3)}× per call (rounds: ${spread(ratios.perCall)}; ${perCall("memory").toFixed(2)} vs ${perCall("plain").toFixed(2)} µs a call); a whole run ${runRatio.toFixed(3)}× (rounds: ${spread(ratios.perRun)}); ${floorRatio.toFixed(3)}× the floor (the loop keeping two records a call, ${perCall("floor").toFixed(2)} µs)`,
  },
];

// On Redis: wall time, since the loop waits for Redis (a call's record is durable before it starts).
const redis = await redisUrl();
if (redis === undefined) console.log("\n  Redis: skipped (no redis-server on PATH and no REDIS_URL)");
else {
  const { RedisJournalStore } = await import("../dist/bullmq/index.js");
  const store = new RedisJournalStore(redis.url);
  const wall = async (fn) => {
    const start = performance.now();
    await fn();
    return (performance.now() - start) * 1000;
  };
  const r10 = [];
  const r1 = [];
  const p10 = [];
  const p1 = [];
  for (let r = 0; r < Math.max(3, Math.floor(rounds / 3)); r++) {
    r10.push(await wall(() => loop(CALLS, store)));
    r1.push(await wall(() => loop(1, store)));
    p10.push(await wall(() => loop(CALLS, undefined)));
    p1.push(await wall(() => loop(1, undefined)));
  }
  const call = (median(r10) - median(r1)) / (TURNS * (CALLS - 1));
  const turn = median(r1) / TURNS - call;
  const plainCall = (median(p10) - median(p1)) / (TURNS * (CALLS - 1));
  const plainTurn = median(p1) / TURNS - plainCall;
  console.log(
    `\n  on Redis (wall time): ${call.toFixed(1)} µs a call (${plainCall.toFixed(1)} without), ${turn.toFixed(1)} µs a turn (${plainTurn.toFixed(1)} without)`,
  );
  await store.close();
  redis.stop();
}
reportTargets(targets);

async function redisUrl() {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: () => {} };
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) return undefined;
  const port = await new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 300));
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}
