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

  describe("when `connection` is missing or not a URL or options", () => {
    // Each of these used to give a client of 127.0.0.1:6379, silently.
    const bad: [string, unknown][] = [
      ["missing", undefined],
      ["a number", 42],
      ["null", null],
      ["an empty URL", ""],
      ["an array", []],
      ["a client", new Redis({ lazyConnect: true })],
    ];
    it.each(bad)("refuses it (%s) with a TypeError naming `connection`, before connecting", (_label, connection) => {
      const executor = () => bullmqExecutor({ connection, queue: "q" } as never);
      const worker = () => bullmqWorker({ connection, queue: "q", tools: [] } as never);
      expect(executor).toThrow(TypeError);
      expect(executor).toThrow(/`connection`/);
      expect(worker).toThrow(TypeError);
      expect(worker).toThrow(/`connection`/);
    });

    it("refuses the same for RedisApprovalLedger, which also takes a client of yours", () => {
      for (const [, connection] of bad.filter(([label]) => label !== "a client")) {
        expect(() => new RedisApprovalLedger(connection as never)).toThrow(/`connection`/);
      }
      expect(() => new RedisApprovalLedger(new Redis({ lazyConnect: true }))).not.toThrow();
    });
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

  it("takes a URL or ioredis options as the executor does, and closes the client it opened", async () => {
    const prefix = `${freshQueue("own")}:`;
    const byUrl = new RedisApprovalLedger(redis.url, { prefix });
    const byOptions = new RedisApprovalLedger({ host: "127.0.0.1", port: redis.port }, { prefix });
    expect(await Promise.all([byUrl.consume("c"), byOptions.consume("c")])).toEqual(expect.arrayContaining([true, false]));
    await byUrl.close();
    await byOptions.close();
    await expect(byUrl.consume("d")).rejects.toThrow();
    expect(await client.exists(`${prefix}c`)).toBe(1);
  });

  it("leaves a client of yours open on close", async () => {
    const ledger = new RedisApprovalLedger(client, { prefix: `${freshQueue("yours")}:` });
    await ledger.close();
    expect(await ledger.consume("k")).toBe(true);
  });

  it("forgets a key after its ttl", async () => {
    const ledger = new RedisApprovalLedger(client, { prefix: `${freshQueue("ttl")}:` });
    expect(await ledger.consume("k", 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(await ledger.consume("k", 50)).toBe(true);
  });
});
