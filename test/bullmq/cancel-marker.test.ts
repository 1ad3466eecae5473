import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import { bullmqWorker, type BullmqWorker } from "../../src/bullmq/index.js";
import { CALL_JOB, keysOf, type CallJobDataV1 } from "../../src/bullmq/protocol.js";
import { freshQueue } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";

// What a worker knows as it takes a job, without a command of its own per job: a cancel for it
// heard on the cancel channel (a producer's cancel racing the take), or, when that channel was
// down lately, the job's cancel marker; and the heartbeat it keeps on it while the job runs.
describe.skipIf(redisUnavailable !== undefined)("bullmqWorker: taking a job", () => {
  const ran: string[] = [];
  const tool = defineTool({
    name: "t",
    description: "",
    schema: z.object({ wait: z.number().optional() }),
    handler: async ({ wait }, ctx) => {
      ran.push(ctx.toolCall.id);
      if (wait !== undefined) await new Promise((resolve) => setTimeout(resolve, wait));
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

  const send = async (id: string, heartbeat?: number, wait?: number): Promise<unknown> => {
    const data: CallJobDataV1 = {
      v: 1,
      call: { id, name: "t", arguments: wait === undefined ? {} : { wait } },
      idempotencyKey: id,
      attempt: 1,
      ...(heartbeat === undefined ? {} : { heartbeat }),
    };
    const job = await (queue as Queue).add(CALL_JOB, data, { jobId: id });
    return job.waitUntilFinished(events as QueueEvents, 10_000);
  };

  it("answers a job whose cancel it heard before taking it not started, and never runs its handler, with a heartbeat or without", async () => {
    for (const [id, heartbeat] of [
      ["heard-beating", 3_000],
      ["heard-quiet", undefined],
    ] as const) {
      // As a producer's cancel that lost the race with a worker's take: published, and heard
      // before BullMQ handed the job over (here, before it was even added).
      await inspect?.publish(keys.cancelChannel, JSON.stringify({ jobId: id, reason: "the user stopped it" }));
      expect(await send(id, heartbeat)).toEqual({ v: 1, cancelled: "the user stopped it", started: false });
    }
    expect(ran).toEqual([]);
  });

  it("writes no heartbeat for a job shorter than a third of it, and its name on one that runs longer", async () => {
    const answer = (await send("quick", 3_000)) as { v: number; result: unknown };
    expect(answer.v).toBe(1);
    expect(await inspect?.exists(keys.heartbeat("quick"))).toBe(0);
    await send("slow", 600, 500);
    expect(ran).toEqual(["quick", "slow"]);
    expect(await inspect?.get(keys.heartbeat("slow"))).toBe("w1");
    const ttl = await inspect?.pttl(keys.heartbeat("slow"));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it("reads the cancel marker of a job it takes while its cancel channel was down lately: a cancel published then was lost", async () => {
    const before = ran.length;
    // The marker alone, no publish: what a cancel sent while the worker's subscription was down leaves.
    await inspect?.set(keys.cancelMarker("marked-trusted"), "lost on the way", "PX", 60_000);
    const answer = (await send("marked-trusted")) as { v: number };
    // With its channel up all along, the worker does not read markers as it takes a job.
    expect(answer).toMatchObject({ v: 1, result: expect.anything() });
    await inspect?.call("CLIENT", "KILL", "TYPE", "pubsub");
    await until(async () => ((await (inspect as Redis).pubsub("NUMSUB", keys.cancelChannel)) as [string, number])[1] === 1);
    await inspect?.set(keys.cancelMarker("marked-after-drop"), "lost on the way", "PX", 60_000);
    expect(await send("marked-after-drop")).toEqual({ v: 1, cancelled: "lost on the way", started: false });
    expect(ran.slice(before)).toEqual(["marked-trusted"]);
  });
});

describe.skipIf(redisUnavailable !== undefined)("bullmqWorker: protocol versions", () => {
  const tool = defineTool({ name: "t", description: "", schema: z.object({ a: z.number() }), handler: ({ a }) => ok(a + 1) });
  const queueName = freshQueue("versions");
  let redis: TestRedis | undefined;
  let worker: BullmqWorker | undefined;
  let queue: Queue | undefined;
  let events: QueueEvents | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    worker = bullmqWorker({ connection: redis.url, queue: queueName, tools: [tool] });
    queue = new Queue(queueName, { connection: { url: redis.url } });
    events = new QueueEvents(queueName, { connection: { url: redis.url } });
    await Promise.all([worker.ready(), queue.waitUntilReady(), events.waitUntilReady()]);
  }, 30_000);

  afterAll(async () => {
    await worker?.close();
    await Promise.all([queue?.close(), events?.close()]);
    await redis?.stop();
  });

  const send = async (jobId: string, data: unknown): Promise<unknown> => {
    const job = await (queue as Queue).add(CALL_JOB, data, { jobId });
    return job.waitUntilFinished(events as QueueEvents, 10_000);
  };

  it("answers a version-2 job's plain ok result as its value alone, and a version-1 job (a producer not upgraded yet) in version 1", async () => {
    expect(await send("k|v2", { v: 2, name: "t", args: { a: 1 } })).toEqual({ v: 2, ok: 2 });
    const v1: CallJobDataV1 = { v: 1, call: { id: "v1", name: "t", arguments: { a: 1 } }, idempotencyKey: "k", attempt: 1 };
    expect(await send("v1", v1)).toEqual({ v: 1, result: { type: "ok", value: 2 } });
  });

  it("fails a job of a protocol it does not know, saying so, without running it", async () => {
    await expect(send("k|v3", { v: 3, name: "t", args: { a: 1 } })).rejects.toThrow(
      "not a toolrx call job of protocol 1 or 2 (name toolrx.call, protocol 3): this worker and the producer are of versions that do not match",
    );
  });
});

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
