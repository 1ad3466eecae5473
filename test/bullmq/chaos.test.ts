import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { runToolCalls, type ToolCall, type ToolMessage } from "../../src/index.js";
import { bullmqExecutor } from "../../src/bullmq/index.js";
import { testTools as tools } from "./fixtures/tools.js";
import { freshQueue, inspector, runCounts, startProducer, startWorker, until, type Child } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";
import { must } from "../support/must.js";

const slow = (id: string, ms: number): ToolCall => ({ id, name: "slow", arguments: { ms } });

describe.skipIf(redisUnavailable !== undefined)("toolrx/bullmq under failures", () => {
  let redis: TestRedis;
  let client: Redis;
  const children: Child[] = [];
  const worker = async (queue: string, name: string, concurrency = 8): Promise<Child> => {
    const child = await startWorker(redis.url, queue, name, concurrency);
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    redis = await startRedis();
    client = inspector(redis.url);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(children.map((c) => c.kill()));
    client?.disconnect();
    await redis?.stop();
  });

  describe("when a worker dies mid-call", () => {
    it("answers handler_exit long before the deadline, and no other worker runs the call again", async () => {
      const queue = freshQueue("kill");
      const doomed = await worker(queue, "doomed");
      const executor = bullmqExecutor({ connection: redis.url, queue, key: "k" });
      const started = Date.now();
      const run = runToolCalls([slow("m", 30_000)], tools(queue, "p"), { toolExecutor: executor, toolTimeout: 60_000 });
      await until(async () => (await client.lrange(`${queue}:started`, 0, -1)).includes("m"));
      await doomed.kill();
      await worker(queue, "survivor");
      const { messages } = await run;
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("handler_exit") });
      // Whichever noticed first (BullMQ's 1 s lock here, or the heartbeat), in toolrx's words.
      expect(messages[0]?.content).toContain("died or lost Redis");
      expect(messages[0]?.content).toContain("its work may have happened");
      expect(messages[0]?.content).not.toContain("stalled");
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await runCounts(client, queue)).m).toBe(1);
      await executor.close();
    }, 30_000);
  });

  describe("when a worker is SIGKILLed mid-call, with BullMQ's own stall check far off", () => {
    it("answers handler_exit from the heartbeat within its documented bound, in toolrx's words, before an idle deadline", async () => {
      const queue = freshQueue("beat");
      // A 30 s lock: BullMQ would notice the dead worker after 30 s at the earliest.
      const doomed = await startWorker(redis.url, queue, "doomed", 8, 30_000);
      children.push(doomed);
      const executor = bullmqExecutor({ connection: redis.url, queue, key: "k" });
      const errors: unknown[] = [];
      const run = runToolCalls([slow("hb", 60_000)], tools(queue, "p"), {
        toolExecutor: executor,
        toolTimeout: 60_000,
        toolIdleTimeout: 20_000,
        onToolError: (_call, e) => {
          errors.push(e);
          return "halt";
        },
      });
      await until(async () => (await client.lrange(`${queue}:started`, 0, -1)).includes("hb"));
      // Past the first renewal, so the heartbeat was seen before the worker died.
      await new Promise((r) => setTimeout(r, 2_000));
      await doomed.kill();
      const killed = Date.now();
      await run;
      // The bound is `heartbeat` (5 s by default) + 1 s; wide for a loaded machine, and still far below 20 s.
      expect(Date.now() - killed).toBeLessThan(12_000);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ reason: "handler_exit", metadata: { remoteState: "failed" } });
      const message = (errors[0] as Error).message;
      expect(message).toContain("its worker (doomed) stopped its heartbeat");
      expect(message).toContain("its work may have happened");
      expect(message).not.toContain("stalled");
      await executor.close();
    }, 60_000);
  });

  describe("when the producer is killed mid-batch and restarted", () => {
    it("re-attaches to the jobs it had sent, answers finished ones from Redis, and runs no handler twice", async () => {
      const queue = freshQueue("restart");
      await worker(queue, "w1", 4);
      await worker(queue, "w2", 4);
      const calls = [
        ...Array.from({ length: 6 }, (_, i) => ({ id: `fast${i}`, name: "echo", arguments: { text: String(i) } })),
        ...Array.from({ length: 6 }, (_, i) => slow(`slow${i}`, 1_500 + 200 * i)),
      ];
      const first = await startProducer(redis.url, queue, "conv-9", calls);
      await until(async () => (await client.llen(`${queue}:started`)) >= 6);
      await first.kill();
      const second = await startProducer(redis.url, queue, "conv-9", calls);
      await second.exited;
      const messages = JSON.parse(must(second.lines.at(-1))) as ToolMessage[];
      expect(messages.map((m) => m.toolCallId)).toEqual(calls.map((c) => c.id));
      expect(messages.filter((m) => m.isError)).toEqual([]);
      const counts = await runCounts(client, queue);
      expect(Object.values(counts)).toEqual(calls.map(() => 1));
    }, 60_000);
  });

  describe("when 10,000 calls cross two workers that are killed at random", () => {
    it("answers each call once, and runs no handler twice", async () => {
      const queue = freshQueue("many");
      const names = ["r1", "r2"];
      const live = new Map<string, Child>();
      for (const name of names) live.set(name, await worker(queue, name, 32));
      const executor = bullmqExecutor({ connection: redis.url, queue, key: "bulk" });
      const calls = Array.from({ length: 10_000 }, (_, i) => ({ id: `c${i}`, name: "echo", arguments: { text: "x" } }));
      let kills = 0;
      let running = true;
      const chaos = (async () => {
        while (running) {
          await new Promise((r) => setTimeout(r, 400 + Math.random() * 600));
          if (!running) break;
          const name = must(names[Math.floor(Math.random() * names.length)]);
          await live.get(name)?.kill();
          kills++;
          live.set(name, await worker(queue, name, 32));
        }
      })();
      const { messages } = await runToolCalls(calls, tools(queue, "p"), { toolExecutor: executor, maxConcurrency: 64, toolTimeout: 60_000 });
      running = false;
      await chaos;
      await executor.close();
      expect(kills).toBeGreaterThan(0);
      expect(messages.map((m) => m.toolCallId)).toEqual(calls.map((c) => c.id));
      const counts = await runCounts(client, queue);
      expect(Object.values(counts).every((n) => n === 1)).toBe(true);
      for (const m of messages) {
        // Answered ok: it ran exactly once. Answered handler_exit: it ran at most once.
        if (!m.isError) expect(counts[m.toolCallId]).toBe(1);
        else expect(m.content).toContain("handler_exit");
      }
    }, 120_000);
  });

  describe("when two producer processes share a tool limit", () => {
    it("holds control.concurrency across both", async () => {
      const queue = freshQueue("limit");
      await worker(queue, "w1", 8);
      await worker(queue, "w2", 8);
      const batch = (p: string) => Array.from({ length: 6 }, (_, i) => ({ id: `${p}${i}`, name: "limited", arguments: { ms: 300 } }));
      const [a, b] = await Promise.all([startProducer(redis.url, queue, "pa", batch("a")), startProducer(redis.url, queue, "pb", batch("b"))]);
      await Promise.all([a.exited, b.exited]);
      for (const p of [a, b]) expect((JSON.parse(must(p.lines.at(-1))) as ToolMessage[]).filter((m) => m.isError)).toEqual([]);
      expect(Number(await client.get(`${queue}:limited:max`))).toBe(2);
    }, 60_000);
  });
});
