import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { config } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bullmqExecutor, type BullmqExecutor } from "../../src/bullmq/index.js";
import { workerPool, type WorkerPool } from "../../src/node/index.js";
import { redisUnavailable, startRedis, type TestRedis } from "../bullmq/redis.js";
import { batch, excluded, type Batch } from "./arbitraries.js";
import { observe } from "./observe.js";
import { propertyTimeout, runParameters } from "./runs.js";
import { inProcessTools, isolatedTools } from "./tools.js";

// 25 generated batches (1 to 4 calls each) through the default executor, a warm worker pool and a
// BullMQ executor with one warm worker process, side by side: the property took 10 to 16 s (the
// file 22 to 30 s, with Redis and the worker process started through tsx) on the project's 2-core
// machine under heavy load (load average around 20), most of it the cases where a call waits out its 1.5 s
// deadline.
const NUM_RUNS = 25;

const workerScript = fileURLToPath(new URL("./fixtures/bullmq-worker.ts", import.meta.url));

/** The worker process, from source through tsx; resolves once it takes jobs. */
function startWorker(url: string, queue: string, logDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", workerScript, url, queue], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, TOOLRX_DIFFERENTIAL_LOG: logDir },
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve(child);
    });
    child.once("exit", (code, signal) => reject(new Error(`the worker process exited (${code ?? signal}) before it was ready`)));
  });
}

describe.skipIf(redisUnavailable !== undefined)("one answer whatever the executor: in-process, workerPool and bullmqExecutor", () => {
  let logDir: string;
  let redis: TestRedis;
  let worker: ChildProcess | undefined;
  let pool: WorkerPool;
  let executor: BullmqExecutor;
  const unhandled: unknown[] = [];
  const previous = config.onUnhandledError;

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), "toolrx-differential-"));
    process.env.TOOLRX_DIFFERENTIAL_LOG = logDir;
    config.onUnhandledError = (e) => unhandled.push(e);
    redis = await startRedis();
    const queue = `differential-${process.pid}-${Date.now().toString(36)}`;
    pool = workerPool({ size: 4, spares: 0, grace: 200 });
    [worker] = await Promise.all([startWorker(redis.url, queue, logDir), pool.warm()]);
    executor = bullmqExecutor({ connection: redis.url, queue });
    await executor.ready();
  }, 60_000);

  afterAll(async () => {
    await executor?.close();
    await pool?.close();
    if (worker?.pid !== undefined && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once("exit", resolve));
      process.kill(worker.pid, "SIGTERM");
      await exited;
    }
    await redis?.stop();
    config.onUnhandledError = previous;
    rmSync(logDir, { recursive: true, force: true });
  }, 30_000);

  it(
    "gives the same events, messages, reports and handler runs for any batch",
    async () => {
      let n = 0;
      const local = inProcessTools();
      const isolated = isolatedTools(pool);
      await fc.assert(
        fc.asyncProperty(batch(excluded(true)), async (b) => {
          n++;
          const [inProcess, threaded, remote] = await Promise.all([
            observe(b, local, undefined, `local-${n}`, logDir),
            observe(b, isolated, pool, `thread-${n}`, logDir),
            observe(b, local, executor, `bullmq-${n}`, logDir),
          ]);
          expect(threaded).toEqual(inProcess);
          expect(remote).toEqual(inProcess);
        }),
        runParameters(NUM_RUNS),
      );
    },
    propertyTimeout(NUM_RUNS, 180_000),
  );

  // Issue 41: error data within the codec's 64 levels crosses unchanged (a returned reason, an Error's data, a thrown object).
  it("error data nested up to 64 levels crosses unchanged", async () => {
    const kinds = ["error-deep-40", "error-deep-data-40", "throw-deep-40"];
    const b: Batch = {
      onToolError: "continue",
      calls: kinds.map((kind, i) => ({ id: `c${i}`, name: "plain", arguments: { steps: [{ do: "hostile", kind }] } })),
    };
    const [inProcess, remote] = await Promise.all([
      observe(b, inProcessTools(), undefined, "local-deep-error", logDir),
      observe(b, inProcessTools(), executor, "bullmq-deep-error", logDir),
    ]);
    expect(remote).toEqual(inProcess);
  }, 30_000);
});
