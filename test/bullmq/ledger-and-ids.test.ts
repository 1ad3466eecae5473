import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { Redis } from "ioredis";
import { bullmqExecutor, bullmqWorker, jobIdOf, RedisApprovalLedger } from "../../src/bullmq/index.js";
import { freshQueue } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { must } from "../support/must.js";

describe("jobIdOf", () => {
  it("gives ids BullMQ accepts (no `:`, never an integer) and never the same id for two different calls", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), fc.integer({ min: 1, max: 5 }), (k1, c1, k2, c2, attempt) => {
        const id = jobIdOf(k1, c1, attempt);
        expect(id).not.toContain(":");
        expect(`${parseInt(id, 10)}`).not.toBe(id);
        if (k1 !== k2 || c1 !== c2) expect(jobIdOf(k2, c2, attempt)).not.toBe(id);
        if (attempt > 1) expect(jobIdOf(k1, c1, 1)).not.toBe(id);
      }),
    );
  });
});

describe("options", () => {
  it("are TypeErrors naming the option", () => {
    expect(() => bullmqExecutor({ connection: "redis://x", queue: "a:b" })).toThrow(/`queue`/);
    expect(() => bullmqExecutor({ connection: "redis://x", queue: "q", retention: -1 })).toThrow(/`retention`/);
    expect(() => bullmqExecutor({ connection: "redis://x", queue: "q", globalConcurrency: 1.5 })).toThrow(/`globalConcurrency`/);
    expect(() => bullmqExecutor({ connection: "redis://x", queue: "q", key: 3 as never })).toThrow(/`key`/);
    expect(() => bullmqWorker({ connection: "redis://x", queue: "q", tools: [], concurrency: 0 })).toThrow(/`concurrency`/);
    expect(() => bullmqWorker({ connection: "redis://x", queue: "q", tools: null as never })).toThrow(/`tools`/);
  });
});

describe.skipIf(redisUnavailable !== undefined)("RedisApprovalLedger", () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it("consumes a key once: true the first time, false ever after", async () => {
    const ledger = new RedisApprovalLedger(client, { prefix: `${freshQueue("ledger")}:` });
    expect(await ledger.consume("conv/call_1")).toBe(true);
    expect(await ledger.consume("conv/call_1")).toBe(false);
    expect(await ledger.consume("conv/call_2")).toBe(true);
  });

  it("gives exactly one true among many consumers racing from two connections", async () => {
    const other = new Redis(redis.url);
    const prefix = `${freshQueue("race")}:`;
    const ledgers = [new RedisApprovalLedger(client, { prefix }), new RedisApprovalLedger(other, { prefix })];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => must(ledgers[i % 2]).consume("approved-call")));
    other.disconnect();
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it("forgets a key after its ttl", async () => {
    const ledger = new RedisApprovalLedger(client, { prefix: `${freshQueue("ttl")}:` });
    expect(await ledger.consume("k", 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(await ledger.consume("k", 50)).toBe(true);
  });
});
