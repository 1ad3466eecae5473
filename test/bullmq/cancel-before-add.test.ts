import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, type ToolCall } from "../../src/index.js";
import { bullmqExecutor, bullmqWorker, type BullmqExecutor, type BullmqWorker } from "../../src/bullmq/index.js";
import { contextFor, deferred } from "../support/helpers.js";
import { freshQueue, until } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { redisRelay, type RedisRelay } from "./redis-relay.js";

// A cancel that comes while its job's add is on its way: BullMQ's remove of a job not there yet
// answers 1 and removes nothing, the add then lands, and a worker would run a call its runner has
// given up on. The producer's cancel removes the job only once its add has landed.
describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor: a cancel before the job's add has landed", () => {
  const ran: string[] = [];
  const gate = deferred<void>();
  const tool = defineTool({
    name: "charge",
    description: "",
    schema: z.object({ block: z.boolean().optional() }),
    handler: async ({ block }, ctx) => {
      ran.push(ctx.toolCall.id);
      if (block === true) await gate.promise;
      return ok("charged");
    },
  });
  const queueName = freshQueue("early-cancel");
  let redis: TestRedis | undefined;
  let relay: RedisRelay | undefined;
  let worker: BullmqWorker | undefined;
  let executor: BullmqExecutor | undefined;
  let queue: Queue | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    relay = await redisRelay(redis.port, "toolrx:producer:", "commands");
    // One call at a time: a blocking call keeps the worker from taking the next job as it lands.
    worker = bullmqWorker({ connection: redis.url, queue: queueName, tools: [tool], name: "w1", concurrency: 1 });
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

  const call = (id: string, block = false): ToolCall => ({ id, name: "charge", arguments: block ? { block } : {} });

  it("removes a job cancelled while its add was on its way once the add lands, before a worker takes it, and answers it not started", async () => {
    const executing = executor as BullmqExecutor;
    const blocker = executing.execute(tool, { block: true }, contextFor(call("blocker", true)));
    await until(() => ran.length === 1);
    const controller = new AbortController();
    relay?.hold("toolrx.call");
    const answer = executing.execute(tool, {}, { ...contextFor(call("held")), signal: controller.signal });
    await until(() => relay?.holding() === true);
    controller.abort(new Error("user stop"));
    // The cancel's own commands queue up behind the add; let them all through, in order.
    await new Promise((resolve) => setTimeout(resolve, 50));
    relay?.release();
    const answered = await answer;
    expect(answered).toMatchObject({ type: "error", reason: { reason: "handler_exit", metadata: { remoteState: "not_started" } } });
    expect((answered as { reason: Error }).reason.message).toBe("tool error (charge): handler_exit: cancelled before a worker took it: user stop");
    expect(await (queue as Queue).getJob("conv|held")).toBeUndefined();
    gate.resolve();
    expect(await blocker).toEqual(ok("charged"));
    // The worker is free again, and the cancelled job is not there for it to take.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toEqual(["blocker"]);
  });

  it("never sends a call whose signal aborted while the executor was getting ready for it", async () => {
    const controller = new AbortController();
    const answer = (executor as BullmqExecutor).execute(tool, {}, { ...contextFor(call("early")), signal: controller.signal });
    controller.abort(new Error("user stop"));
    expect(await answer).toMatchObject({ type: "error", reason: { reason: "handler_exit", metadata: { remoteState: "not_started" } } });
    expect(await (queue as Queue).getJob("conv|early")).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toEqual(["blocker"]);
  });
});
