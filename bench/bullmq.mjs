#!/usr/bin/env node
/**
 * toolrx/bullmq against bare BullMQ: the same trivial call through `runToolCalls` with
 * `bullmqExecutor` and a `bullmqWorker`, and through bare BullMQ (a `Queue`, a `Worker` and
 * `QueueEvents`, with the settings toolrx uses: one attempt, no stalled retry, the same lock,
 * the same retention), at 16 and 64 calls in flight, one worker process each. The worker
 * processes start once and stay warm; the systems run in alternating rounds over the same Redis,
 * and each row's figures are medians over the rounds, the ratios paired within each round
 * (median with the 25th–75th percentiles). CPU per call of the producer (this process), the
 * worker process (/proc) and Redis (INFO cpu).
 *
 *   npm run build && node bench/bullmq.mjs [--calls 2000] [--rounds 9] [--quick]   (redis-server or REDIS_URL)
 *
 * Targets (bullmq-16, bullmq-64): toolrx ≥ 0.95× bare BullMQ's throughput; (bullmq-worker-cpu):
 * toolrx's worker process ≤ 1.15× bare BullMQ's CPU per call, at 64 in flight. Without a
 * redis-server (and no REDIS_URL) they are reported as not measured, except under CI=true,
 * where that is a failure.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../dist/index.js";
import { bullmqExecutor, bullmqWorker } from "../dist/bullmq/index.js";
import { alternatingRounds, bareSystem, ownRedis, paired, serveWorker, toolrxSystem } from "./lib/bullmq-systems.mjs";
import { reportTargets } from "./lib/report-targets.mjs";
import { median, round } from "./lib/stats.mjs";

const noop = defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });
const IN_FLIGHT = [16, 64];
const TARGET_IDS = ["bullmq-16", "bullmq-64", "bullmq-worker-cpu"];
const script = fileURLToPath(import.meta.url);

if (process.argv[2] === "--worker") {
  const [, , , kind, url, queue, concurrency] = process.argv;
  await serveWorker(url, queue, Number(concurrency), kind === "toolrx" ? { bullmqWorker, tool: noop } : undefined);
} else {
  await main();
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const calls = Number(args[args.indexOf("--calls") + 1]) || (quick ? 300 : 2_000);
  const rounds = Number(args[args.indexOf("--rounds") + 1]) || (quick ? 2 : 9);
  let own;
  let url = process.env.REDIS_URL;
  if (url === undefined && !hasRedisServer()) {
    if (process.env.CI === "true") throw new Error("bench: redis-server is not installed (CI installs it; see .ci/run)");
    console.log("no redis-server on this machine and no REDIS_URL: the BullMQ bench needs one");
    reportTargets(TARGET_IDS.map((id) => ({ id, target: id, met: null, figure: "not measured: no redis-server on this machine" })));
    return;
  }
  if (url === undefined) {
    own = await ownRedis();
    url = own.url;
  }
  const info = new Redis(url);
  const stamp = Date.now();
  const concurrency = Math.max(...IN_FLIGHT);
  const systems = {
    toolrx: await toolrxSystem({ script, kind: "toolrx", url, queue: `bench-rx-${stamp}`, concurrency, lib: { runToolCalls }, bullmqExecutor, tool: noop }),
    bare: await bareSystem({ script, url, queue: `bench-bare-${stamp}`, concurrency }),
  };
  const results = {};
  try {
    for (const inFlight of IN_FLIGHT) results[inFlight] = await alternatingRounds(systems, info, { calls, rounds, inFlight, warmup: 500 });
  } finally {
    await Promise.all(Object.values(systems).map((s) => s.close()));
    info.disconnect();
    own?.stop();
  }
  console.log(`\nBullMQ, one worker process each, ${calls} calls per round, median of ${rounds} alternating rounds`);
  const table = [];
  for (const inFlight of IN_FLIGHT) {
    for (const [name, runs] of Object.entries(results[inFlight])) {
      const m = (key) => median(runs.map((x) => x[key]));
      table.push({
        system: name,
        "in flight": inFlight,
        "calls/s": Math.round(m("perSecond")),
        "producer µs/call": round(m("producer"), 0),
        "worker µs/call": round(m("worker"), 0),
        "redis µs/call": round(m("redis"), 0),
      });
    }
  }
  console.table(table);
  const ratioOf = (inFlight, key) => paired(results[inFlight].toolrx, results[inFlight].bare, key);
  const ratio = (x) => `${x.median}× (rounds: ${x.p25}–${x.p75}×)`;
  const throughput = (inFlight) => {
    const x = ratioOf(inFlight, "perSecond");
    return {
      id: `bullmq-${inFlight}`,
      target: `BullMQ, ${inFlight} in flight: ≥ 0.95× bare BullMQ's throughput (Queue/Worker/QueueEvents, same settings)`,
      met: x.median >= 0.95,
      figure: `${ratio(x)}; producer CPU ${ratio(ratioOf(inFlight, "producer"))}, Redis CPU ${ratio(ratioOf(inFlight, "redis"))}`,
    };
  };
  const cpu = ratioOf(64, "worker");
  reportTargets([
    ...IN_FLIGHT.map(throughput),
    {
      id: "bullmq-worker-cpu",
      target: "BullMQ, 64 in flight: worker process CPU per call ≤ 1.15× bare BullMQ's",
      met: cpu.median <= 1.15,
      figure: ratio(cpu),
    },
  ]);
}

/** Whether Debian's (or any) redis-server is on the PATH. */
function hasRedisServer() {
  return (process.env.PATH ?? "").split(":").some((dir) => dir !== "" && existsSync(`${dir}/redis-server`));
}
