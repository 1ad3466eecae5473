import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import { bullmqExecutor, bullmqWorker, type BullmqExecutor, type BullmqWorker } from "../../src/bullmq/index.js";
import { contextFor, deferred } from "../support/helpers.js";
import { freshQueue, until } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { redisRelay, type RedisRelay } from "./redis-relay.js";

// A cancel that comes as its job finishes: BullMQ's remove answers 1 for a finished job as for a
// waiting one. Answering `not_started` from that reply would tell the runner (a retry, a durable
// journal) that a handler which ran never did. The call is answered by the queue's events, in order.
describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor: a cancel racing the job's end", () => {
  const entered = deferred<void>();
  const finish = deferred<void>();
  const tool = defineTool({
    name: "charge",
    description: "",
    schema: z.object({}),
    handler: async () => {
      entered.resolve();
      await finish.promise;
      return ok("charged");
    },
  });
  const queueName = freshQueue("late-cancel");
  let redis: TestRedis | undefined;
  let relay: RedisRelay | undefined;
  let worker: BullmqWorker | undefined;
  let executor: BullmqExecutor | undefined;
  let queue: Queue | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    relay = await redisRelay(redis.port, "toolrx:events:", "replies");
    worker = bullmqWorker({ connection: redis.url, queue: queueName, tools: [tool], name: "w1" });
    executor = bullmqExecutor({ connection: relay.url, queue: queueName, key: "conv" });
    queue = new Queue(queueName, { connection: { url: redis.url } });
    await Promise.all([worker.ready(), executor.ready(), queue.waitUntilReady()]);
  }, 30_000);

  afterAll(async () => {
    relay?.release();
    await executor?.close();
    await worker?.close();
    await queue?.close();
    relay?.close();
    await redis?.stop();
  });

  it("answers with the handler's result, not not_started, when the remove lands after the job completed", async () => {
    const q = queue as Queue;
    const controller = new AbortController();
    const call = { id: "c1", name: "charge", arguments: {} };
    const answer = (executor as BullmqExecutor).execute(tool, {}, { ...contextFor(call), signal: controller.signal });
    await entered.promise;
    relay?.hold();
    finish.resolve();
    await until(async () => (await q.getCompletedCount()) === 1);
    controller.abort(new Error("user stop"));
    // The cancel's remove reaches Redis (not held back) and deletes the finished job.
    await until(async () => (await q.getCompletedCount()) === 0);
    relay?.release();
    expect(await answer).toEqual({ type: "ok", value: "charged" });
  });
});
