import { afterAll, describe, expect, it, vi } from "vitest";
import { runToolCalls, type ToolCall } from "../../src/index.js";
import { bullmqExecutor } from "../../src/bullmq/index.js";
import { testTools as tools } from "./fixtures/tools.js";
import { freshQueue, inspector, startWorker, until, type Child } from "./fleet.js";
import { redisUnavailable, startRedis } from "./redis.js";
import { must } from "../support/must.js";

const slow = (id: string, ms: number): ToolCall => ({ id, name: "slow", arguments: { ms } });
const children: Child[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
});

describe.skipIf(redisUnavailable !== undefined)("toolrx/bullmq when Redis goes away", () => {
  describe("when Redis dies under an idle executor", () => {
    it.skipIf(process.env.REDIS_URL !== undefined)(
      "prints nothing, answers new calls not_started, and closes without waiting for Redis",
      async () => {
        const own = await startRedis();
        const printed: string[] = [];
        const keep = (...args: unknown[]): void => void printed.push(args.map(String).join(" "));
        const spies = [vi.spyOn(console, "error").mockImplementation(keep), vi.spyOn(console, "warn").mockImplementation(keep)];
        try {
          const executor = bullmqExecutor({ connection: own.url, queue: freshQueue("idle"), key: "k" });
          await executor.ready();
          await own.stop();
          // Long enough for several reconnect attempts, each refused.
          await new Promise((r) => setTimeout(r, 1_500));
          const answers: unknown[] = [];
          await runToolCalls([slow("n1", 10)], tools("idle", "p"), {
            toolExecutor: executor,
            onToolError: (_call, e) => {
              answers.push(e);
              return "halt";
            },
          });
          expect(answers).toMatchObject([{ reason: "handler_exit", metadata: { remoteState: "not_started" } }]);
          const closing = Date.now();
          await executor.close();
          // The bound it used to wait in full is 1 s; closing does no I/O with Redis gone.
          expect(Date.now() - closing).toBeLessThan(1_000);
          await new Promise((r) => setTimeout(r, 300));
          expect(printed.filter((line) => line.includes("ECONNREFUSED"))).toEqual([]);
        } finally {
          for (const spy of spies) spy.mockRestore();
          await own.stop();
        }
      },
      30_000,
    );
  });

  describe("when Redis stops mid-batch", () => {
    it.skipIf(process.env.REDIS_URL !== undefined)(
      "answers every call handler_exit at once, not at its deadline",
      async () => {
        const own = await startRedis();
        try {
          const queue = freshQueue("down");
          const child = await startWorker(own.url, queue, "w", 4);
          children.push(child);
          const executor = bullmqExecutor({ connection: own.url, queue, key: "k" });
          const calls = Array.from({ length: 8 }, (_, i) => slow(`d${i}`, 30_000));
          const run = runToolCalls(calls, tools(queue, "p"), { toolExecutor: executor, toolTimeout: 60_000 });
          const probe = inspector(own.url);
          await until(async () => (await probe.llen(`${queue}:started`)) === 4);
          probe.disconnect();
          const stopped = Date.now();
          await own.stop();
          const { messages } = await run;
          expect(Date.now() - stopped).toBeLessThan(5_000);
          expect(messages.map((m) => m.isError)).toEqual(calls.map(() => true));
          expect(messages.every((m) => m.content.includes("handler_exit"))).toBe(true);
          // Calls made while Redis is down answer at once too.
          const t = Date.now();
          const later = await runToolCalls([slow("d9", 10)], tools(queue, "p"), { toolExecutor: executor, toolTimeout: 60_000 });
          expect(must(later.messages[0]).content).toContain("handler_exit");
          expect(Date.now() - t).toBeLessThan(5_000);
          // Closing does not wait for Redis to come back either.
          const closing = Date.now();
          await executor.close();
          expect(Date.now() - closing).toBeLessThan(5_000);
          await child.kill();
        } finally {
          await own.stop();
        }
      },
      90_000,
    ); // wide: starting Redis and a worker process on a loaded 2-core machine; the promise is the 5 s above
  });
});
