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
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../dist/index.js";
import { bullmqExecutor, bullmqWorker } from "../dist/bullmq/index.js";
import { reportTargets } from "./lib/report-targets.mjs";
import { median, quantile, round } from "./lib/stats.mjs";

const noop = defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });
/** What both workers are given: as toolrx's defaults. */
const WORKER_SETTINGS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 0, maxStartedAttempts: 1 };
const RETENTION_S = 60;
const IN_FLIGHT = [16, 64];
const TARGET_IDS = ["bullmq-16", "bullmq-64", "bullmq-worker-cpu"];

if (process.argv[2] === "--worker") {
  const [, , , kind, url, queue, concurrency] = process.argv;
  let close;
  if (kind === "toolrx") {
    const worker = bullmqWorker({ connection: url, queue, tools: [noop], concurrency: Number(concurrency) });
    await worker.ready();
    close = () => worker.close();
  } else {
    const worker = new Worker(queue, async (job) => job.data.i, {
      connection: new Redis(url, { maxRetriesPerRequest: null }),
      concurrency: Number(concurrency),
      ...WORKER_SETTINGS,
    });
    worker.on("error", () => undefined);
    await worker.waitUntilReady();
    close = () => worker.close();
  }
  process.stdout.write("ready\n");
  process.on("SIGTERM", () => void close().then(() => process.exit(0)));
} else {
  await main();
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const calls = Number(args[args.indexOf("--calls") + 1]) || (quick ? 300 : 2_000);
  const rounds = Number(args[args.indexOf("--rounds") + 1]) || (quick ? 2 : 9);
  let redisProcess;
  let url = process.env.REDIS_URL;
  if (url === undefined && !hasRedisServer()) {
    if (process.env.CI === "true") throw new Error("bench: redis-server is not installed (CI installs it; see .ci/run)");
    console.log("no redis-server on this machine and no REDIS_URL: the BullMQ bench needs one");
    reportTargets(TARGET_IDS.map((id) => ({ id, target: id, met: null, figure: "not measured: no redis-server on this machine" })));
    return;
  }
  if (url === undefined) {
    const port = await freePort();
    redisProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  const info = new Redis(url);
  const stamp = Date.now();
  const concurrency = Math.max(...IN_FLIGHT);
  const systems = { toolrx: await toolrxSystem(url, `bench-rx-${stamp}`, concurrency), bare: await bareSystem(url, `bench-bare-${stamp}`, concurrency) };
  const results = {};
  try {
    for (const inFlight of IN_FLIGHT) {
      for (const system of Object.values(systems)) await system.run(Math.min(calls, 500), inFlight); // warm-up
      const got = { toolrx: [], bare: [] };
      const names = Object.keys(systems);
      for (let r = 0; r < rounds; r++) {
        for (let s = 0; s < names.length; s++) {
          const name = names[(s + r) % names.length];
          got[name].push(await measured(systems[name], info, calls, inFlight));
        }
      }
      results[inFlight] = got;
    }
  } finally {
    await Promise.all(Object.values(systems).map((s) => s.close()));
    info.disconnect();
    redisProcess?.kill("SIGKILL");
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
  const paired = (inFlight, key) => {
    const { toolrx, bare } = results[inFlight];
    const xs = toolrx.map((t, r) => t[key] / bare[r][key]);
    return { median: round(median(xs), 2), p25: round(quantile(xs, 0.25), 2), p75: round(quantile(xs, 0.75), 2) };
  };
  const ratio = (x) => `${x.median}× (rounds: ${x.p25}–${x.p75}×)`;
  const throughput = (inFlight) => {
    const x = paired(inFlight, "perSecond");
    return {
      id: `bullmq-${inFlight}`,
      target: `BullMQ, ${inFlight} in flight: ≥ 0.95× bare BullMQ's throughput (Queue/Worker/QueueEvents, same settings)`,
      met: x.median >= 0.95,
      figure: `${ratio(x)}; producer CPU ${ratio(paired(inFlight, "producer"))}, Redis CPU ${ratio(paired(inFlight, "redis"))}`,
    };
  };
  const cpu = paired(64, "worker");
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

/** One run of `calls` calls, `inFlight` at a time: throughput and each process's CPU per call. */
async function measured(system, info, calls, inFlight) {
  const cpu0 = process.cpuUsage();
  const w0 = cpuOf(system.child);
  const r0 = await redisCpu(info);
  const t0 = performance.now();
  await system.run(calls, inFlight);
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const w1 = cpuOf(system.child);
  const r1 = await redisCpu(info);
  return { perSecond: calls / (elapsed / 1000), producer: (cpu.user + cpu.system) / calls, worker: (w1 - w0) / calls, redis: (r1 - r0) / calls };
}

async function toolrxSystem(url, queue, concurrency) {
  const child = await startWorker("toolrx", url, queue, concurrency);
  const executor = bullmqExecutor({ connection: url, queue, key: queue, retention: RETENTION_S * 1000 });
  await executor.ready();
  let batch = 0;
  return {
    child,
    async run(n, inFlight) {
      const b = batch++;
      const calls = Array.from({ length: n }, (_, i) => ({ id: `c${b}-${i}`, name: "noop", arguments: { i } }));
      const { messages } = await runToolCalls(calls, [noop], { toolExecutor: executor, maxConcurrency: inFlight });
      if (messages.length !== n || messages.some((m, i) => m.isError || m.content !== String(i)))
        throw new Error("bench: toolrx did not answer every call once, by its handler");
    },
    async close() {
      await executor.close();
      await stopWorker(child);
    },
  };
}

async function bareSystem(url, queueName, concurrency) {
  const child = await startWorker("bare", url, queueName, concurrency);
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const eventsConnection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection });
  const events = new QueueEvents(queueName, { connection: eventsConnection });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  // Each waiting job listens for the events' closing: 64 in flight are not a leak.
  events.setMaxListeners(0);
  queue.setMaxListeners(0);
  const options = { attempts: 1, removeOnComplete: { age: RETENTION_S }, removeOnFail: { age: RETENTION_S } };
  return {
    child,
    async run(n, inFlight) {
      let next = 0;
      let answered = 0;
      const lane = async () => {
        while (next < n) {
          const i = next++;
          const job = await queue.add("call", { i }, options);
          const value = await job.waitUntilFinished(events);
          if (value !== i) throw new Error(`bench: bare BullMQ answered call ${i} with ${JSON.stringify(value)}`);
          answered++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, n) }, lane));
      if (answered !== n) throw new Error(`bench: bare BullMQ answered ${answered} of ${n} calls`);
    },
    async close() {
      await Promise.all([queue.close(), events.close()]);
      // BullMQ leaves the connections it was given open.
      connection.disconnect();
      eventsConnection.disconnect();
      await stopWorker(child);
    },
  };
}

/** Whether Debian's (or any) redis-server is on the PATH. */
function hasRedisServer() {
  return (process.env.PATH ?? "").split(":").some((dir) => dir !== "" && existsSync(`${dir}/redis-server`));
}

function startWorker(kind, url, queue, concurrency) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--worker", kind, url, queue, String(concurrency)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`bench worker exited with ${code}`)));
  });
}

/** Stop a worker process and wait for it, so that it never outlives the Redis it talks to. */
function stopWorker(child) {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  return exited;
}

/** CPU time of a child process so far, in µs (utime + stime from /proc, 100 ticks a second). */
function cpuOf(child) {
  const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Redis' own CPU time so far, in µs. */
async function redisCpu(info) {
  const text = await info.info("cpu");
  const read = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(text)[1]);
  return (read("used_cpu_user") + read("used_cpu_sys")) * 1e6;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
