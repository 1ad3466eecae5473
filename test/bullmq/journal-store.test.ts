import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent } from "../../src/index.js";
import { RedisJournalStore } from "../../src/bullmq/index.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { journalStoreContract } from "../support/journal-store-contract.js";
import { randomIdModel } from "../support/random-id-model.js";

describe.skipIf(redisUnavailable !== undefined)("RedisJournalStore", () => {
  let redis: TestRedis;
  let store: RedisJournalStore;
  const opened: RedisJournalStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    store = new RedisJournalStore(redis.url);
  });
  afterAll(async () => {
    await Promise.all([store, ...opened].map((s) => s?.close()));
    await redis?.stop();
  });

  // The contract every journal store keeps (test/support/journal-store-contract.ts), on a real
  // Redis: leases and retention in seconds, wide of a loaded 2-core machine's pauses.
  journalStoreContract(
    () => ({
      store,
      unitMs: 2_000,
      elapse: (ms) => new Promise((r) => setTimeout(r, ms)),
      withTtl: (ttlMs) => {
        const short = new RedisJournalStore(redis.url, { ttlMs });
        opened.push(short);
        return short;
      },
    }),
    { ttlMs: true },
  );

  it("keeps a finished run's entries with Redis's own expiry of `retainMs`", async () => {
    const tools = [defineTool({ name: "pay", description: "", schema: z.object({ cents: z.number() }), handler: () => ok("paid") })];
    await runAgent({
      model: randomIdModel().fn,
      tools,
      messages: [{ role: "user", content: "a" }],
      journal: { store, conversationKey: "kept-ttl", retainMs: 60_000 },
    });
    const client = (await import("ioredis")).Redis;
    const raw = new client(redis.url);
    const ttl = await raw.pttl("toolrx:journal:kept-ttl:entries");
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
