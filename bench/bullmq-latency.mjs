#!/usr/bin/env node
/**
 * Where a call's wall time goes, from the producer's start of it to its answer, through
 * toolrx/bullmq and through bare BullMQ (Queue, Worker, QueueEvents and `waitUntilFinished`), at
 * one number of calls in flight, one warm worker process each, over one Redis, alternating rounds.
 * Each call's job keeps BullMQ's own stamps (`timestamp` when the producer built the job,
 * `processedOn` when a worker took it, `finishedOn` when its processor returned, all on this
 * machine's clock), read from Redis after each round; the producer stamps the call's start and
 * its answer. Per call, the mean over all rounds' calls, in ms (the stamps are whole ms; the mean of
 * thousands of them is not):
 * - before add: the producer's work from the call's start to `Queue.add` building the job;
 * - to a worker: the add's round trip, the job's wait, the worker's fetch and `moveToActive`;
 * - on the worker: the processor (toolrx: reading the job, the runner, the answer's encoding);
 * - back: `moveToFinished`, the `completed` event through the events stream to `QueueEvents`,
 *   the producer's decode and (toolrx) its runner's answer.
 *
 *   npm run build && node bench/bullmq-latency.mjs [--calls 800] [--rounds 5] [--in-flight 16]
 */
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { z } from "zod";
import { defineTool, ok, streamToolCalls } from "../dist/index.js";
import { bullmqExecutor, bullmqWorker, jobIdOf } from "../dist/bullmq/index.js";
import { bareProducer, ownRedis, RETENTION_S, serveWorker, startWorker, stopWorker } from "./lib/bullmq-systems.mjs";
import { round } from "./lib/stats.mjs";

const noop = defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });
const script = fileURLToPath(import.meta.url);

if (process.argv[2] === "--worker") {
  const [, , , kind, url, queue, concurrency] = process.argv;
  await serveWorker(url, queue, Number(concurrency), kind === "toolrx" ? { bullmqWorker, tool: noop } : undefined);
} else {
  await main();
}

async function main() {
  const argv = process.argv.slice(2);
  const flag = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
  const calls = flag("--calls", 800);
  const rounds = flag("--rounds", 5);
  const inFlight = flag("--in-flight", 16);
  const redis = await ownRedis();
  const stamp = Date.now();
  const inspect = new Redis(redis.url);
  const systems = {};
  const got = { toolrx: [], bare: [] };
  try {
    systems.toolrx = await toolrxLatency(redis.url, `lat-rx-${stamp}`, inFlight, inspect);
    systems.bare = await bareLatency(redis.url, `lat-bare-${stamp}`, inFlight, inspect);
    for (const system of Object.values(systems)) await system.run(300, "warm");
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 === 0 ? ["toolrx", "bare"] : ["bare", "toolrx"]) got[name].push(...(await systems[name].run(calls, `r${r}`)));
    }
  } finally {
    await Promise.all(Object.values(systems).map((s) => s.close()));
    inspect.disconnect();
    redis.stop();
  }
  console.log(`BullMQ, ${inFlight} in flight, ${calls} calls × ${rounds} rounds: mean per call, ms`);
  console.table(
    Object.entries(got).map(([system, spans]) => {
      const m = (key) => round(spans.reduce((sum, s) => sum + s[key], 0) / spans.length, 2);
      return { system, "before add": m("beforeAdd"), "to a worker": m("toWorker"), "on the worker": m("onWorker"), back: m("back"), total: m("total") };
    }),
  );
}

/** A call's spans from its four stamps (ms). */
function spansOf(start, job, answered) {
  const timestamp = Number(job.timestamp);
  const processedOn = Number(job.processedOn);
  const finishedOn = Number(job.finishedOn);
  return {
    beforeAdd: timestamp - start,
    toWorker: processedOn - timestamp,
    onWorker: finishedOn - processedOn,
    back: answered - finishedOn,
    total: answered - start,
  };
}

async function stampsOf(inspect, queue, ids) {
  const pipeline = inspect.pipeline();
  for (const id of ids) pipeline.hmget(`bull:${queue}:${id}`, "timestamp", "processedOn", "finishedOn");
  return (await pipeline.exec()).map(([error, [timestamp, processedOn, finishedOn]]) => {
    if (error !== null || finishedOn === null) throw new Error(`bench: no stamps for a job of ${queue}`);
    return { timestamp, processedOn, finishedOn };
  });
}

async function toolrxLatency(url, queue, inFlight, inspect) {
  const child = await startWorker(script, "toolrx", url, queue, inFlight);
  const executor = bullmqExecutor({ connection: url, queue, key: queue, retention: RETENTION_S * 1000 });
  await executor.ready();
  return {
    async run(n, tag) {
      const calls = Array.from({ length: n }, (_, i) => ({ id: `${tag}-${i}`, name: "noop", arguments: { i } }));
      const start = new Map();
      const answered = new Map();
      await new Promise((resolve, reject) =>
        streamToolCalls(calls, [noop], { toolExecutor: executor, maxConcurrency: inFlight }).subscribe({
          next: (event) => {
            if (event.type === "tool_execution_started") start.set(event.toolCallId, Date.now());
            else if (event.type === "tool_execution_completed") {
              if (event.result.type !== "ok") reject(new Error(`bench: call ${event.toolCallId} failed`));
              answered.set(event.toolCallId, Date.now());
            }
          },
          error: reject,
          complete: resolve,
        }),
      );
      const stamps = await stampsOf(
        inspect,
        queue,
        calls.map((call) => jobIdOf(queue, call.id, 1)),
      );
      return calls.map((call, i) => spansOf(start.get(call.id), stamps[i], answered.get(call.id)));
    },
    async close() {
      await executor.close();
      await stopWorker(child);
    },
  };
}

async function bareLatency(url, queueName, inFlight, inspect) {
  const child = await startWorker(script, "bare", url, queueName, inFlight);
  const producer = await bareProducer(url, queueName);
  const { queue, events, options } = producer;
  return {
    async run(n) {
      let next = 0;
      const seen = [];
      const lane = async () => {
        while (next < n) {
          const i = next++;
          const start = Date.now();
          const job = await queue.add("call", { i }, options);
          const value = await job.waitUntilFinished(events);
          if (value !== i) throw new Error(`bench: bare BullMQ answered call ${i} with ${JSON.stringify(value)}`);
          seen.push({ id: job.id, start, answered: Date.now() });
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, n) }, lane));
      const stamps = await stampsOf(
        inspect,
        queueName,
        seen.map((s) => s.id),
      );
      return seen.map((s, i) => spansOf(s.start, stamps[i], s.answered));
    },
    async close() {
      await producer.close();
      await stopWorker(child);
    },
  };
}
