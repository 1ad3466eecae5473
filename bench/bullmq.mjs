#!/usr/bin/env node
/**
 * toolrx/bullmq: latency (p50/p99 per call) and throughput through `runToolCalls` with
 * `bullmqExecutor`, at 1, 16 and 64 calls in flight, with 1 and 2 worker processes, and the CPU
 * each call costs the producer, the workers and Redis (from process.cpuUsage, /proc and Redis'
 * INFO cpu, all over the same row). The handler does nothing: this is the transport's cost.
 *
 *   node bench/bullmq.mjs [--calls 2000] [--quick]     (needs `npm run build`; redis-server or REDIS_URL)
 *
 * Compare with the prototype measured on this machine: 1,600–3,800 calls/s at 64 in flight,
 * p50 about 1–2 ms at 1 in flight, one Redis topping out near 5–7k calls/s.
 *
 * Target (bullmq-throughput): at least 3,000 calls/s at 64 in flight with one Redis. Without a
 * redis-server (and no REDIS_URL) the target is reported as not measured, except under CI=true,
 * where that is a failure.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../dist/index.js";
import { bullmqExecutor, bullmqWorker } from "../dist/bullmq/index.js";
import { reportTargets } from "./lib/report-targets.mjs";

const TARGET_TEXT = "BullMQ: ≥ 3,000 calls/s at 64 in flight with one Redis";

const noop = defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });

if (process.argv[2] === "--worker") {
  const [, , , url, queue, concurrency] = process.argv;
  const worker = bullmqWorker({ connection: url, queue, tools: [noop], concurrency: Number(concurrency) });
  await worker.ready();
  process.stdout.write("ready\n");
  process.on("SIGTERM", () => void worker.close().then(() => process.exit(0)));
} else {
  await main();
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const calls = Number(args[args.indexOf("--calls") + 1]) || (quick ? 300 : 2000);
  let redisProcess;
  let url = process.env.REDIS_URL;
  if (url === undefined && !hasRedisServer()) {
    if (process.env.CI === "true") throw new Error("bench: redis-server is not installed (CI installs it; see .ci/run)");
    console.log("no redis-server on this machine and no REDIS_URL: the BullMQ bench needs one");
    reportTargets([{ id: "bullmq-throughput", target: TARGET_TEXT, met: null, figure: "not measured: no redis-server on this machine" }]);
    return;
  }
  if (url === undefined) {
    const port = await freePort();
    redisProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  const info = new Redis(url);
  const rows = [];
  try {
    for (const workers of [1, 2]) {
      for (const inFlight of [1, 16, 64]) rows.push(await row(url, info, workers, inFlight, inFlight === 1 ? Math.min(calls, 500) : calls));
    }
  } finally {
    info.disconnect();
    redisProcess?.kill("SIGKILL");
  }
  const best = rows.filter((r) => r.inFlight === 64).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  console.log("workers  in flight  calls   calls/s  p50 ms  p99 ms  CPU µs/call: producer  workers  redis");
  for (const r of rows) {
    console.log(
      `${String(r.workers).padStart(7)}  ${String(r.inFlight).padStart(9)}  ${String(r.calls).padStart(5)}  ${r.perSecond.toFixed(0).padStart(8)}  ${r.p50.toFixed(2).padStart(6)}  ${r.p99.toFixed(2).padStart(6)}  ${r.cpuProducer.toFixed(0).padStart(20)}  ${r.cpuWorkers.toFixed(0).padStart(7)}  ${r.cpuRedis.toFixed(0).padStart(5)}`,
    );
  }
  reportTargets([
    {
      id: "bullmq-throughput",
      target: TARGET_TEXT,
      met: best.perSecond >= 3_000,
      figure:
        `${Math.round(best.perSecond).toLocaleString("en-US")} calls/s with ${best.workers} worker process${best.workers === 1 ? "" : "es"} ` +
        `(CPU per call: producer ${best.cpuProducer.toFixed(0)} µs, workers ${best.cpuWorkers.toFixed(0)} µs, Redis ${best.cpuRedis.toFixed(0)} µs)`,
    },
  ]);
}

/** Whether Debian's (or any) redis-server is on the PATH. */
function hasRedisServer() {
  return (process.env.PATH ?? "").split(":").some((dir) => dir !== "" && existsSync(`${dir}/redis-server`));
}

async function row(url, info, workerCount, inFlight, calls) {
  const queue = `bench-${workerCount}-${inFlight}-${Date.now()}`;
  const workers = await Promise.all(Array.from({ length: workerCount }, () => startWorker(url, queue, Math.max(inFlight, 1))));
  const executor = bullmqExecutor({ connection: url, queue, key: queue, retention: 60_000 });
  await executor.ready();
  const latencies = [];
  const timed = {
    async execute(tool, args, ctx) {
      const t = performance.now();
      const result = await executor.execute(tool, args, ctx);
      latencies.push(performance.now() - t);
      return result;
    },
  };
  // Warm up connections and code paths.
  await runToolCalls(
    Array.from({ length: 50 }, (_, i) => ({ id: `w${i}`, name: "noop", arguments: { i } })),
    [noop],
    { toolExecutor: timed, maxConcurrency: inFlight },
  );
  latencies.length = 0;
  const batch = Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, name: "noop", arguments: { i } }));
  const cpu0 = process.cpuUsage();
  const w0 = workers.map(cpuOf);
  const r0 = await redisCpu(info);
  const t0 = performance.now();
  const { messages } = await runToolCalls(batch, [noop], { toolExecutor: timed, maxConcurrency: inFlight });
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const w1 = workers.map(cpuOf);
  const r1 = await redisCpu(info);
  if (messages.some((m, i) => m.isError || m.content !== String(i))) throw new Error("bench: a call was not answered by its handler");
  await executor.close();
  for (const w of workers) w.kill("SIGTERM");
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    workers: workerCount,
    inFlight,
    calls,
    perSecond: calls / (elapsed / 1000),
    p50: at(0.5),
    p99: at(0.99),
    cpuProducer: (cpu.user + cpu.system) / calls,
    cpuWorkers: (w1.reduce((a, b) => a + b, 0) - w0.reduce((a, b) => a + b, 0)) / calls,
    cpuRedis: (r1 - r0) / calls,
  };
}

function startWorker(url, queue, concurrency) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--worker", url, queue, String(concurrency)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`bench worker exited with ${code}`)));
  });
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
