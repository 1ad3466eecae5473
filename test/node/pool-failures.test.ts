import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { runToolCalls, streamToolCalls, type HandlerContext, type Tool } from "../../src/index.js";
import { call, fixtureTool, testPool, until } from "./pool-helpers.js";
import { must } from "../support/must.js";
import { noClientRequests } from "../support/helpers.js";

describe("workerPool", () => {
  describe("when a thread dies", () => {
    it.each([
      ["calls process.exit", "exit", "exited with code 3"],
      ["throws from a timer", "uncaught", "thrown from a timer"],
      ["leaves a rejection unhandled", "unhandled", "nobody catches this"],
      ["runs out of memory under resourceLimits", "oom", "out of memory"],
    ])("answers handler_exit for that call alone when its handler %s", async (_, exportName, why) => {
      const pool = testPool({ size: 2, spares: 1, resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
      const tools = [fixtureTool(pool, exportName), fixtureTool(pool, "spin")];
      const calls = [call("dies", exportName), ...[1, 2, 3].map((i) => call(`s${i}`, "spin", { ms: 20 }))];
      const { messages } = await runToolCalls(calls, tools, { toolExecutor: pool, toolTimeout: 10_000 });
      expect(must(messages[0]).content).toContain("handler_exit");
      expect(must(messages[0]).content.toLowerCase()).toContain(why);
      expect(messages.slice(1).map((m) => m.content)).toEqual(["20", "20", "20"]);
      await until(() => pool.stats().threads === 3 && pool.stats().idle === 3);
    });

    it("answers the waiting calls handler_exit when no thread can start, and tries again on the next call", async () => {
      const pool = testPool({ preload: [new URL("./fixtures/broken-preload.mjs", import.meta.url)] });
      const spin = fixtureTool(pool, "spin");
      const first = await runToolCalls([call("a", "spin", { ms: 1 })], [spin], { toolExecutor: pool });
      expect(must(first.messages[0]).content).toContain("no worker thread could start: this preload cannot load");
      await until(() => pool.stats().starting === 0 && pool.stats().threads === 0);
      const second = await runToolCalls([call("b", "spin", { ms: 1 })], [spin], { toolExecutor: pool });
      expect(must(second.messages[0]).content).toContain("no worker thread could start");
    });
  });

  describe("when the calls are let go", () => {
    it("kills what still runs after an unsubscribe, and leaves no timer behind", async () => {
      const pool = testPool({ size: 2, spares: 0, grace: 50 });
      await pool.warm();
      const timers = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
      const forever = fixtureTool(pool, "forever");
      const subscription = streamToolCalls([call("a", "forever"), call("b", "forever")], [forever], { toolExecutor: pool, toolTimeout: 60_000 }).subscribe();
      await until(() => pool.stats().running === 2);
      subscription.unsubscribe();
      expect(pool.stats()).toMatchObject({ running: 0, draining: 2 });
      await until(() => pool.stats().draining === 0 && pool.stats().idle === 2);
      expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBeLessThanOrEqual(timers);
    });

    it("removes its listener from the call's signal once the call is answered", async () => {
      const pool = testPool();
      const controller = new AbortController();
      const spin = fixtureTool(pool, "spin") as Tool;
      const ctx: HandlerContext = {
        context: {},
        sessionId: undefined,
        requestId: undefined,
        toolCall: call("a", "spin"),
        engine: undefined,
        signal: controller.signal,
        progress: () => {},
        log: () => {},
        ...noClientRequests,
      };
      const answer = pool.execute(spin, { ms: 1 }, ctx);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
      await expect(answer).resolves.toEqual({ type: "ok", value: 1 });
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    });

    it("on close, answers what runs or waits handler_exit and ends every thread", async () => {
      const pool = testPool({ size: 1, spares: 1 });
      const forever = fixtureTool(pool, "forever");
      const batch = runToolCalls([call("a", "forever"), call("b", "forever")], [forever], { toolExecutor: pool, toolTimeout: 60_000, maxConcurrency: 2 });
      await until(() => pool.stats().running === 1);
      await pool.close();
      const { messages } = await batch;
      expect(messages.map((m) => m.content.includes("handler_exit"))).toEqual([true, true]);
      expect(pool.stats()).toEqual({ threads: 0, starting: 0, idle: 0, running: 0, draining: 0, queued: 0 });
      const after = await runToolCalls([call("c", "forever")], [forever], { toolExecutor: pool });
      expect(must(after.messages[0]).content).toContain("the worker pool is closed");
    });
  });
});
