#!/usr/bin/env node
/**
 * toolrx/bullmq of two or more builds side by side, paired round by round over one Redis, with
 * bare BullMQ beside them as the reference: the same trivial call at one number of calls in
 * flight, one warm worker process per system. CPU per call of the producer (this process), each
 * worker process (/proc) and Redis (INFO cpu), and throughput; each build's ratios are taken
 * within a round against the first build and against bare BullMQ (median, 25th–75th
 * percentile), so load from other work hits all alike. For finding which commit made the remote
 * path dearer, and for showing that a change made it cheaper.
 *
 *   node bench/bullmq-builds.mjs <dist-dir> [<dist-dir> ...] [--calls 1000] [--rounds 7] [--in-flight 64]
 *
 * A dist-dir is a build's `dist/` (`npm run build`, or `tsup` in a checkout of the commit).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { z } from "zod";
import { median, quantile, round } from "./lib/stats.mjs";

const WORKER_SETTINGS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 0, maxStartedAttempts: 1 };
const RETENTION_S = 60;
const load = (dir, sub) => import(pathToFileURL(resolve(dir, sub, "index.js")).href);
const noopOf = (lib) => lib.defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => lib.ok(i) });

if (process.argv[2] === "--worker") {
  const [, , , dir, url, queue, concurrency] = process.argv;
  let close;
  if (dir === "bare") {
    const worker = new Worker(queue, async (job) => job.data.i, {
      connection: new Redis(url, { maxRetriesPerRequest: null }),
      concurrency: Number(concurrency),
      ...WORKER_SETTINGS,
    });
    worker.on("error", () => undefined);
    await worker.waitUntilReady();
    close = () => worker.close();
  } else {
    const [lib, { bullmqWorker }] = await Promise.all([load(dir, "."), load(dir, "bullmq")]);
    const worker = bullmqWorker({ connection: url, queue, tools: [noopOf(lib)], concurrency: Number(concurrency) });
    await worker.ready();
    close = () => worker.close();
  }
  process.stdout.write("ready\n");
  process.on("SIGTERM", () => void close().then(() => process.exit(0)));
} else {
  await main();
}

async function main() {
  const argv = process.argv.slice(2);
  const flag = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
  const dirs = argv.filter((a, i) => !a.startsWith("--") && !argv[i - 1]?.startsWith("--"));
  if (dirs.length === 0) throw new Error("usage: node bench/bullmq-builds.mjs <dist-dir> [<dist-dir> ...] [--calls n] [--rounds n] [--in-flight n]");
  const calls = flag("--calls", 1_000);
  const rounds = flag("--rounds", 7);
  const inFlight = flag("--in-flight", 64);
  const port = await freePort();
  const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const url = `redis://127.0.0.1:${port}`;
  await new Promise((r) => setTimeout(r, 300));
  const info = new Redis(url);
  const stamp = Date.now();
  const short = (dir) => (dir.replace(/\/+$/, "").endsWith("dist") ? (dir.replace(/\/+$/, "").split("/").at(-2) ?? dir) : dir);
  const systems = [{ name: "bare", ...(await bareSystem(url, `bb-bare-${stamp}`, inFlight)) }];
  for (const [i, dir] of dirs.entries()) systems.push({ name: short(dir), ...(await toolrxSystem(dir, url, `bb-${i}-${stamp}`, inFlight)) });
  const got = new Map(systems.map((s) => [s.name, []]));
  try {
    for (const s of systems) await s.run(Math.min(calls, 300), inFlight); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < systems.length; k++) {
        const s = systems[(k + r) % systems.length];
        got.get(s.name).push(await measured(s, info, calls, inFlight));
      }
    }
  } finally {
    await Promise.all(systems.map((s) => s.close()));
    info.disconnect();
    redis.kill("SIGKILL");
  }
  const spread = (xs) => `${round(median(xs), 2)}× (${round(quantile(xs, 0.25), 2)}–${round(quantile(xs, 0.75), 2)})`;
  const ratios = (name, against, key) => got.get(name).map((x, r) => x[key] / got.get(against)[r][key]);
  console.log(`BullMQ, ${inFlight} in flight, ${calls} calls per round, ${rounds} rounds, one worker process each`);
  console.table(
    systems.map(({ name }) => {
      const runs = got.get(name);
      const m = (key) => round(median(runs.map((x) => x[key])), 0);
      const row = { system: name, "calls/s": m("perSecond"), "producer µs": m("producer"), "worker µs": m("worker"), "redis µs": m("redis") };
      if (name === "bare") return row;
      return {
        ...row,
        "worker × bare": spread(ratios(name, "bare", "worker")),
        "calls/s × bare": spread(ratios(name, "bare", "perSecond")),
        [`worker × ${short(dirs[0])}`]: spread(ratios(name, short(dirs[0]), "worker")),
        [`producer × ${short(dirs[0])}`]: spread(ratios(name, short(dirs[0]), "producer")),
        [`calls/s × ${short(dirs[0])}`]: spread(ratios(name, short(dirs[0]), "perSecond")),
      };
    }),
  );
}

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

async function toolrxSystem(dir, url, queue, concurrency) {
  const [lib, { bullmqExecutor }] = await Promise.all([load(dir, "."), load(dir, "bullmq")]);
  const noop = noopOf(lib);
  const child = await startWorker(dir, url, queue, concurrency);
  const executor = bullmqExecutor({ connection: url, queue, key: queue, retention: RETENTION_S * 1000 });
  await executor.ready();
  let batch = 0;
  return {
    child,
    async run(n, inFlight) {
      const b = batch++;
      const calls = Array.from({ length: n }, (_, i) => ({ id: `c${b}-${i}`, name: "noop", arguments: { i } }));
      const { messages } = await lib.runToolCalls(calls, [noop], { toolExecutor: executor, maxConcurrency: inFlight });
      if (messages.length !== n || messages.some((m, i) => m.isError || m.content !== String(i)))
        throw new Error(`bench: ${dir} did not answer every call once`);
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
  events.setMaxListeners(0);
  queue.setMaxListeners(0);
  const options = { attempts: 1, removeOnComplete: { age: RETENTION_S }, removeOnFail: { age: RETENTION_S } };
  return {
    child,
    async run(n, inFlight) {
      let next = 0;
      const lane = async () => {
        while (next < n) {
          const i = next++;
          const job = await queue.add("call", { i }, options);
          if ((await job.waitUntilFinished(events)) !== i) throw new Error(`bench: bare BullMQ answered call ${i} wrongly`);
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, n) }, lane));
    },
    async close() {
      await Promise.all([queue.close(), events.close()]);
      connection.disconnect();
      eventsConnection.disconnect();
      await stopWorker(child);
    },
  };
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
