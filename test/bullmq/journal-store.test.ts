import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, JournalLeaseError, ok, runAgent, streamAgent, type HandlerResult } from "../../src/index.js";
import { RedisJournalStore } from "../../src/bullmq/index.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { randomIdModel } from "../support/random-id-model.js";

describe.skipIf(redisUnavailable !== undefined)("RedisJournalStore", () => {
  let redis: TestRedis;
  let store: RedisJournalStore;
  beforeAll(async () => {
    redis = await startRedis();
    store = new RedisJournalStore(redis.url);
  });
  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it("a restart resumes from Redis: the recorded reply keeps its ids, a call cut off mid-run is not run again", async () => {
    const payments: number[] = [];
    let hang = true;
    const pay = defineTool({
      name: "pay",
      description: "",
      schema: z.object({ cents: z.number() }),
      handler: ({ cents }) => {
        payments.push(cents);
        return hang ? new Promise<HandlerResult>(() => {}) : ok("paid");
      },
    });
    const journal = { store, conversationKey: "order-1", owner: "pod-a" };
    const first = randomIdModel();
    let ids: string[] = [];
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model: first.fn, tools: [pay], messages: [{ role: "user", content: "pay" }], journal }).subscribe((e) => {
        if (e.type === "model_reply") ids = (e.message.toolCalls ?? []).map((c) => c.id);
        if (e.type === "tool_event" && e.event.type === "tool_execution_started")
          setTimeout(() => {
            subscription.unsubscribe();
            resolve();
          }, 20);
      });
    });
    hang = false;
    await new Promise((r) => setTimeout(r, 50)); // the first run lets go of its lease on unsubscribe (a crashed one would not)
    const second = randomIdModel();
    const result = await runAgent({ model: second.fn, tools: [pay], messages: [{ role: "user", content: "pay" }], journal });
    expect(result.haltedReason).toBe("completed");
    expect(second.asked).toEqual([1]);
    expect(payments).toEqual([5]);
    expect(result.messages[1]).toMatchObject({ role: "assistant", toolCalls: [{ id: ids[0] }] });
    expect(result.messages[2]).toMatchObject({ role: "tool", toolCallId: ids[0], isError: true });
    expect((await store.entries("order-1")).map((e) => e.type)).toEqual(["run", "call", "reply", "outcome", "reply", "halt"]);
  });

  it("a second owner is refused while the lease holds, takes it once it has run out, and the first can no longer write", async () => {
    await store.acquire("lease-1", "a", 200);
    await expect(store.acquire("lease-1", "b", 200)).rejects.toThrow(new JournalLeaseError("lease-1", "a").message);
    await expect(store.acquire("lease-1", "a", 200)).resolves.toEqual([]);
    await new Promise((r) => setTimeout(r, 400));
    await expect(store.acquire("lease-1", "b", 10_000)).resolves.toEqual([]);
    await expect(store.append("lease-1", "a", [{ type: "halt", haltedReason: "x" }])).rejects.toBeInstanceOf(JournalLeaseError);
    expect(await store.renew("lease-1", "a", 1_000)).toBe(false);
    expect(await store.renew("lease-1", "b", 1_000)).toBe(true);
  });

  it("keeps a finished run's entries `retainMs`, deletes them at once with 0", async () => {
    const m = () => randomIdModel().fn;
    const tools = [defineTool({ name: "pay", description: "", schema: z.object({ cents: z.number() }), handler: () => ok("paid") })];
    await runAgent({ model: m(), tools, messages: [{ role: "user", content: "a" }], journal: { store, conversationKey: "kept", retainMs: 60_000 } });
    await runAgent({ model: m(), tools, messages: [{ role: "user", content: "a" }], journal: { store, conversationKey: "gone", retainMs: 0 } });
    expect((await store.entries("kept")).length).toBeGreaterThan(0);
    expect(await store.entries("gone")).toEqual([]);
    const client = (await import("ioredis")).Redis;
    const raw = new client(redis.url);
    const ttl = await raw.pttl("toolrx:journal:kept:entries");
    await raw.quit();
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("checks its options", () => {
    expect(() => new RedisJournalStore(3 as never)).toThrow(/`redis`/);
    expect(() => new RedisJournalStore(redis.url, { ttlMs: 0 })).toThrow(/`ttlMs`/);
    expect(() => new RedisJournalStore(redis.url, { prefix: 1 as never })).toThrow(/`prefix`/);
  });
});
