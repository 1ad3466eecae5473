import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../../src/index.js";
import { bullmqExecutor } from "../../src/bullmq/index.js";
import { freshQueue, startDocsWorker, type Child } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";

const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });
const children: Child[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
});

/** A worker as docs/distributed.md shows, after it has answered one call. */
async function servingWorker(redis: TestRedis, label: string): Promise<Child> {
  const queue = freshQueue(label);
  const worker = await startDocsWorker(redis.url, queue);
  children.push(worker);
  const executor = bullmqExecutor({ connection: redis.url, queue, key: label });
  try {
    const { messages } = await runToolCalls([{ id: "c1", name: "echo", arguments: { text: "hi" } }], [echo], { toolExecutor: executor });
    expect(messages).toMatchObject([{ toolCallId: "c1", content: "hi" }]);
  } finally {
    await executor.close();
  }
  return worker;
}

/** How the worker process ended after SIGTERM, or `"still running"` after 20 s (it takes well under 3 s). */
function endOf(worker: Child): Promise<number | string> {
  const late = new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 20_000).unref());
  return Promise.race([worker.kill("SIGTERM"), late]);
}

describe.skipIf(redisUnavailable !== undefined)("bullmqWorker on SIGTERM", () => {
  describe("when Redis is up", () => {
    it("closes and the process exits by itself", async () => {
      const redis = await startRedis();
      try {
        const worker = await servingWorker(redis, "term-up");
        expect(await endOf(worker)).toBe(0);
      } finally {
        await redis.stop();
      }
    }, 60_000);
  });

  describe("when Redis has gone away first", () => {
    // BullMQ's own close waits for Redis; the worker must not.
    it.skipIf(process.env.REDIS_URL !== undefined)(
      "closes and the process exits by itself",
      async () => {
        const redis = await startRedis();
        try {
          const worker = await servingWorker(redis, "term-down");
          await redis.stop();
          // Long enough for the worker's connections to notice and start reconnecting.
          await new Promise((r) => setTimeout(r, 500));
          expect(await endOf(worker)).toBe(0);
        } finally {
          await redis.stop();
        }
      },
      60_000,
    );
  });
});
