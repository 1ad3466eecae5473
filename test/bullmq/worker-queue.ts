import type { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { bullmqExecutor, type BullmqExecutor } from "../../src/bullmq/index.js";
import { freshQueue, inspector, startWorker, type Child } from "./fleet.js";
import { startRedis, type TestRedis } from "./redis.js";

/** What {@link workerQueue} started: read its fields inside a test. */
export interface WorkerQueue {
  /** A client for looking into Redis: the fixture tools' run counts, the keys a producer wrote. */
  readonly client: Redis;
  readonly queue: string;
  /** The worker process `w1`, running 2 calls at once. */
  readonly worker: Child;
  /** The producer's executor, with key `conv-1`. */
  readonly executor: BullmqExecutor;
}

/**
 * A Redis of the calling file's own, one worker process (`w1`, 2 calls at once, the fixture
 * tools) and one executor on a fresh queue: started before the file's tests and closed after
 * them. Call it inside the `describe` that skips without Redis.
 */
export function workerQueue(label: string): WorkerQueue {
  let redis: TestRedis | undefined;
  let started: WorkerQueue | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    const queue = freshQueue(label);
    const worker = await startWorker(redis.url, queue, "w1", 2);
    const executor = bullmqExecutor({ connection: redis.url, queue, key: "conv-1" });
    started = { client: inspector(redis.url), queue, worker, executor };
    await executor.ready();
  }, 30_000);

  afterAll(async () => {
    await started?.executor.close();
    await started?.worker.kill("SIGTERM");
    started?.client.disconnect();
    await redis?.stop();
  });

  const field = <K extends keyof WorkerQueue>(key: K): WorkerQueue[K] => {
    if (started === undefined) throw new Error("the queue is not started yet: read it inside a test");
    return started[key];
  };
  return {
    get client() {
      return field("client");
    },
    get queue() {
      return field("queue");
    },
    get worker() {
      return field("worker");
    },
    get executor() {
      return field("executor");
    },
  };
}
