import { afterAll, beforeAll } from "vitest";
import type { Tool } from "../../src/index.js";
import { bullmqExecutor, bullmqWorker, type BullmqExecutor, type BullmqWorker } from "../../src/bullmq/index.js";
import { freshQueue } from "./fleet.js";
import { startRedis, type TestRedis } from "./redis.js";

/**
 * A Redis of the calling file's own, one in-process worker serving `tools` and one executor, on
 * a fresh queue: started before the file's tests and closed after them. Call it inside the
 * `describe` that skips without Redis, and read `executor()` inside a test.
 */
export function oneQueue(label: string, tools: Tool[]): { readonly executor: () => BullmqExecutor } {
  let redis: TestRedis | undefined;
  let worker: BullmqWorker | undefined;
  let executor: BullmqExecutor | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    const queue = freshQueue(label);
    worker = bullmqWorker({ connection: redis.url, queue, tools });
    executor = bullmqExecutor({ connection: redis.url, queue });
    await Promise.all([worker.ready(), executor.ready()]);
  }, 30_000);

  afterAll(async () => {
    await executor?.close();
    await worker?.close();
    await redis?.stop();
  });

  return {
    executor: () => {
      if (executor === undefined) throw new Error("the queue is not started yet: read executor() inside a test");
      return executor;
    },
  };
}
