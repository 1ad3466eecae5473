import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import { bullmqWorker, type BullmqWorker } from "../../src/bullmq/index.js";
import { CALL_JOB, keysOf, type CallJobData } from "../../src/bullmq/protocol.js";
import { freshQueue } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";

// What a worker reads as it takes a job: the cancel marker a producer may have left before the
// job reached it (a cancel racing the job's add), and the heartbeat it starts, in one command.
describe.skipIf(redisUnavailable !== undefined)("bullmqWorker: taking a job", () => {
  const ran: string[] = [];
  const tool = defineTool({
    name: "t",
    description: "",
    schema: z.object({}),
    handler: (_args, ctx) => {
      ran.push(ctx.toolCall.id);
      return ok(ctx.toolCall.id);
    },
  });
  const queueName = freshQueue("marker");
  const keys = keysOf("bull", queueName);
  let redis: TestRedis | undefined;
  let worker: BullmqWorker | undefined;
  let queue: Queue | undefined;
  let events: QueueEvents | undefined;
  let inspect: Redis | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    worker = bullmqWorker({ connection: redis.url, queue: queueName, tools: [tool], name: "w1" });
    queue = new Queue(queueName, { connection: { url: redis.url } });
    events = new QueueEvents(queueName, { connection: { url: redis.url } });
    inspect = new Redis(redis.url);
    await Promise.all([worker.ready(), queue.waitUntilReady(), events.waitUntilReady()]);
  }, 30_000);

  afterAll(async () => {
    await worker?.close();
    await Promise.all([queue?.close(), events?.close()]);
    inspect?.disconnect();
    await redis?.stop();
  });

  const send = async (id: string, heartbeat?: number): Promise<unknown> => {
    const data: CallJobData = {
      v: 1,
      call: { id, name: "t", arguments: {} },
      idempotencyKey: id,
      attempt: 1,
      ...(heartbeat === undefined ? {} : { heartbeat }),
    };
    const job = await (queue as Queue).add(CALL_JOB, data, { jobId: id });
    return job.waitUntilFinished(events as QueueEvents, 10_000);
  };

  it("answers a job whose cancel marker is set not started, and never runs its handler, with a heartbeat or without", async () => {
    for (const [id, heartbeat] of [
      ["cancelled-beating", 3_000],
      ["cancelled-quiet", undefined],
    ] as const) {
      await inspect?.set(keys.cancelMarker(id), "the user stopped it", "PX", 60_000);
      expect(await send(id, heartbeat)).toEqual({ v: 1, cancelled: "the user stopped it", started: false });
    }
    expect(ran).toEqual([]);
  });

  it("runs a job without a marker, and writes its heartbeat with the worker's name as it takes it", async () => {
    const answer = (await send("runs", 3_000)) as { v: number; result: unknown };
    expect(answer.v).toBe(1);
    expect(ran).toEqual(["runs"]);
    expect(await inspect?.get(keys.heartbeat("runs"))).toBe("w1");
    const ttl = await inspect?.pttl(keys.heartbeat("runs"));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_000);
  });
});
