/**
 * What the BullMQ benches share: worker processes (toolrx's `bullmqWorker` or bare BullMQ's
 * `Worker`, warm, one per system), the producer side of each system, and the rounds loop that
 * runs them alternately over one Redis and measures throughput and each process's CPU per call.
 * bench/bullmq.mjs compares the current build with bare BullMQ; bench/bullmq-builds.mjs compares
 * several builds with each other and with bare BullMQ.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { median, quantile, round } from "./stats.mjs";

/** What both workers are given: as toolrx's defaults. */
export const WORKER_SETTINGS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 0, maxStartedAttempts: 1 };
export const RETENTION_S = 60;

/**
 * The worker side, in a process `startWorker` spawned: bare BullMQ when `toolrx` is undefined,
 * else `toolrx.bullmqWorker` running `toolrx.tool`. Prints `ready`; closes on SIGTERM.
 */
export async function serveWorker(url, queue, concurrency, toolrx) {
  let close;
  if (toolrx === undefined) {
    const worker = new Worker(queue, async (job) => job.data.i, {
      connection: new Redis(url, { maxRetriesPerRequest: null }),
      concurrency,
      ...WORKER_SETTINGS,
    });
    worker.on("error", () => undefined);
    await worker.waitUntilReady();
    close = () => worker.close();
  } else {
    const worker = toolrx.bullmqWorker({ connection: url, queue, tools: [toolrx.tool], concurrency });
    await worker.ready();
    close = () => worker.close();
  }
  process.stdout.write("ready\n");
  process.on("SIGTERM", () => void close().then(() => process.exit(0)));
}

/**
 * A worker process: `script --worker <kind> <url> <queue> <concurrency>`, resolved once it is ready.
 * `BENCH_WORKER_FLAGS` goes to its `node` (`--cpu-prof --cpu-prof-dir=.tmp/prof` profiles each
 * worker, which NODE_OPTIONS does not allow).
 */
export function startWorker(script, kind, url, queue, concurrency) {
  const flags = (process.env.BENCH_WORKER_FLAGS ?? "").split(" ").filter((flag) => flag !== "");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, script, "--worker", kind, url, queue, String(concurrency)], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`bench worker exited with ${code}`)));
  });
}

/** Stop a worker process and wait for it, so that it never outlives the Redis it talks to. */
export function stopWorker(child) {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  return exited;
}

/** The producer side of toolrx: `runToolCalls` through a `bullmqExecutor`, every answer checked. */
export async function toolrxSystem({ script, kind, url, queue, concurrency, lib, bullmqExecutor, tool }) {
  const child = await startWorker(script, kind, url, queue, concurrency);
  const executor = bullmqExecutor({ connection: url, queue, key: queue, retention: RETENTION_S * 1000 });
  await executor.ready();
  let batch = 0;
  return {
    child,
    async run(n, inFlight) {
      const b = batch++;
      const calls = Array.from({ length: n }, (_, i) => ({ id: `c${b}-${i}`, name: tool.name, arguments: { i } }));
      const { messages } = await lib.runToolCalls(calls, [tool], { toolExecutor: executor, maxConcurrency: inFlight });
      if (messages.length !== n || messages.some((m, i) => m.isError || m.content !== String(i)))
        throw new Error(`bench: toolrx (${kind}) did not answer every call once, by its handler`);
    },
    async close() {
      await executor.close();
      await stopWorker(child);
    },
  };
}

/** Bare BullMQ: a `Queue`, `QueueEvents` and `waitUntilFinished`, with toolrx's settings and retention. */
export async function bareSystem({ script, url, queue: queueName, concurrency }) {
  const child = await startWorker(script, "bare", url, queueName, concurrency);
  const producer = await bareProducer(url, queueName);
  const { queue, events, options } = producer;
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
      await producer.close();
      await stopWorker(child);
    },
  };
}

/** Bare BullMQ's producer side: a `Queue` and `QueueEvents` on connections of their own, the job options with toolrx's settings and retention, and their closing. */
export async function bareProducer(url, queueName) {
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
    queue,
    events,
    options,
    async close() {
      await Promise.all([queue.close(), events.close()]);
      // BullMQ leaves the connections it was given open.
      connection.disconnect();
      eventsConnection.disconnect();
    },
  };
}

/**
 * Each system warmed up, then `rounds` rounds of `calls` calls at `inFlight`, each round running
 * every system once in a rotating order, so drift in the machine's speed hits them alike.
 * Returns each system's measurements round by round.
 */
export async function alternatingRounds(systems, info, { calls, rounds, inFlight, warmup }) {
  const names = Object.keys(systems);
  for (const name of names) await systems[name].run(Math.min(calls, warmup), inFlight);
  const got = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      got[name].push(await measured(systems[name], info, calls, inFlight));
    }
  }
  return got;
}

/** Round-by-round ratios of `key` between two systems' measurements: median and 25th–75th percentile. */
export function paired(runs, against, key) {
  const xs = runs.map((x, r) => x[key] / against[r][key]);
  return { median: round(median(xs), 2), p25: round(quantile(xs, 0.25), 2), p75: round(quantile(xs, 0.75), 2) };
}

/** One run of `calls` calls, `inFlight` at a time: throughput and each process's CPU per call (µs). */
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

/** A redis-server of our own on a free port (no persistence); `stop` kills it. */
export async function ownRedis() {
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
