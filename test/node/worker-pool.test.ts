import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, streamToolCalls, ToolError, type HandlerResult, type ToolEvent } from "../../src/index.js";
import { isolatedTool } from "../../src/node/index.js";
import { anyArgs, call, fixture, fixtureTool, reportsLog, testPool, until } from "./pool-helpers.js";
import { must } from "../support/must.js";

/** The result each call completed with, by call id. */
function completed(events: ToolEvent[]): Record<string, HandlerResult> {
  const out: Record<string, HandlerResult> = {};
  for (const e of events) if (e.type === "tool_execution_completed") out[e.toolCallId] = e.result;
  return out;
}

function collect(...args: Parameters<typeof streamToolCalls>): Promise<ToolEvent[]> {
  return new Promise((resolve, reject) => {
    const events: ToolEvent[] = [];
    streamToolCalls(...args).subscribe({ next: (e) => events.push(e), error: reject, complete: () => resolve(events) });
  });
}

describe("workerPool", () => {
  describe("when a handler returns", () => {
    it("answers as the handler would in-process, with what of ctx can travel", async () => {
      const pool = testPool();
      const tools = [fixtureTool(pool, "default", "echo"), fixtureTool(pool, "context"), fixtureTool(pool, "notAResult")];
      const { messages } = await runToolCalls([call("a", "echo", { x: [1, "two"] }), call("b", "context"), call("c", "notAResult")], tools, {
        toolExecutor: pool,
        context: { tenant: "t1" },
        sessionId: "s1",
        requestId: "r1",
      });
      expect(messages.map((m) => m.content)).toEqual([
        '{"x":[1,"two"]}',
        '{"context":{"tenant":"t1"},"sessionId":"s1","requestId":"r1","toolCallId":"b","engine":null}',
        expect.stringContaining("invalid_return"),
      ]);
    });

    it("keeps a thrown error's class, message, data and the handler_raised reason", async () => {
      const pool = testPool();
      const events = await collect([call("a", "raise")], [fixtureTool(pool, "raise")], { toolExecutor: pool });
      const reason = (completed(events).a as { reason: ToolError }).reason;
      expect(reason).toBeInstanceOf(ToolError);
      expect(reason.reason).toBe("handler_raised");
      expect(reason.cause).toBeInstanceOf(RangeError);
      expect(reason.cause).toMatchObject({ message: "out of range", limit: 7 });
    });

    it("answers invalid_return for a result that cannot leave the thread, saying what", async () => {
      const pool = testPool();
      const events = await collect([call("a", "bigint")], [fixtureTool(pool, "bigint")], { toolExecutor: pool });
      const reason = (completed(events).a as { reason: ToolError }).reason;
      expect(reason.reason).toBe("invalid_return");
      expect(reason.message).toContain("`n` is a bigint");
    });

    it("passes progress to onCallReport", async () => {
      const pool = testPool();
      const { reports, onCallReport } = reportsLog();
      await runToolCalls([call("a", "progress")], [fixtureTool(pool, "progress")], { toolExecutor: pool, onCallReport });
      expect(reports).toEqual([
        { type: "progress", index: 0, toolCallId: "a", toolName: "progress", attempt: 1, progress: 1, total: 2, message: "half", data: { rows: [1, 2] } },
      ]);
    });

    it("passes ctx.log from the worker thread to onCallReport", async () => {
      const pool = testPool();
      const { reports, onCallReport } = reportsLog();
      await runToolCalls([call("a", "logs")], [fixtureTool(pool, "logs")], { toolExecutor: pool, onCallReport });
      expect(reports).toEqual([{ type: "log", index: 0, toolCallId: "a", toolName: "logs", attempt: 1, level: "warning", data: { slow: true }, logger: "db" }]);
    });

    it("sends only the chosen part of the context, and answers handler_exit when it cannot be sent", async () => {
      const pool = testPool();
      const picky = pool.tool({
        name: "picky",
        description: "",
        schema: anyArgs,
        module: fixture,
        export: "context",
        context: (c) => (c as { id: string }).id,
      });
      const all = fixtureTool(pool, "context", "all");
      const { messages } = await runToolCalls([call("a", "picky"), call("b", "all")], [picky, all], {
        toolExecutor: pool,
        context: { id: "u1", db: () => {} },
      });
      expect(JSON.parse(must(messages[0]).content).context).toBe("u1");
      expect(must(messages[1]).content).toContain("handler_exit");
      expect(must(messages[1]).content).toContain("cannot be sent to a worker thread");
    });

    it("runs preloads before the first call, and other tools in-process", async () => {
      const pool = testPool({ preload: [new URL("./fixtures/preload.mjs", import.meta.url)] });
      const local = defineTool({ name: "local", description: "", schema: anyArgs, handler: () => ok("in-process") });
      const { messages } = await runToolCalls([call("a", "preloaded"), call("b", "local")], [fixtureTool(pool, "preloaded"), local], { toolExecutor: pool });
      expect(messages.map((m) => m.content)).toEqual(["preload.mjs", "in-process"]);
    });

    it("answers not_found for a missing export and handler_raised for a module that fails to load", async () => {
      const pool = testPool();
      const missing = fixtureTool(pool, "notAFunction");
      const broken = pool.tool({ name: "broken", description: "", schema: anyArgs, module: new URL("./fixtures/broken-preload.mjs", import.meta.url) });
      const events = await collect([call("a", "notAFunction"), call("b", "broken")], [missing, broken], { toolExecutor: pool });
      const results = completed(events);
      expect((results.a as { reason: ToolError }).reason.reason).toBe("not_found");
      expect((results.b as { reason: ToolError }).reason).toMatchObject({ reason: "handler_raised", cause: { message: "this preload cannot load" } });
    });
  });

  describe("when a deadline passes", () => {
    it("answers a CPU-bound handler timeout on time, kills its thread after the grace, and replaces it", async () => {
      const pool = testPool({ size: 1, spares: 1, grace: 50 });
      await pool.warm();
      const { reports, onCallReport } = reportsLog();
      const started = performance.now();
      const { messages } = await runToolCalls([call("a", "forever")], [fixtureTool(pool, "forever")], { toolExecutor: pool, toolTimeout: 200, onCallReport });
      const took = performance.now() - started;
      expect(must(messages[0]).content).toContain("timeout");
      expect(took).toBeGreaterThanOrEqual(195);
      expect(took).toBeLessThan(600); // a loaded machine's margin; in-process this call never answers
      await until(() => reports.length === 1);
      expect(reports[0]).toMatchObject({ type: "late_settlement", toolCallId: "a", abandoned: "timeout", settled: false, fate: "killed" });
      await until(() => pool.stats().threads === 2 && pool.stats().idle === 2);
      const again = await runToolCalls([call("b", "spin", { ms: 1 })], [fixtureTool(pool, "spin")], { toolExecutor: pool });
      expect(must(again.messages[0]).content).toBe("1");
    });

    it("does not kill a handler that honours its signal: it settles with the reason it was given", async () => {
      const pool = testPool({ size: 1, spares: 0, grace: 5_000 });
      await pool.warm();
      const { reports, onCallReport } = reportsLog();
      await runToolCalls([call("a", "cooperative")], [fixtureTool(pool, "cooperative")], { toolExecutor: pool, toolTimeout: 100, onCallReport });
      await until(() => reports.length === 1);
      expect(reports[0]).toMatchObject({
        type: "late_settlement",
        settled: true,
        result: { type: "error", reason: "stopped: tool cooperative timed out after 100 ms" },
      });
      expect(reports).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ threads: 1, idle: 1, draining: 0 }); // the same thread, not a replacement
    });
  });

  describe("as a concurrency limit", () => {
    it("queues its tools' calls in the runner, before their deadlines start", async () => {
      const pool = testPool({ size: 1, spares: 0 });
      await pool.warm();
      const spin = fixtureTool(pool, "spin");
      const calls = [0, 1, 2, 3].map((i) => call(`c${i}`, "spin", { ms: 60 }));
      const { messages } = await runToolCalls(calls, [spin], { toolExecutor: pool, toolTimeout: 1_000, maxConcurrency: 4 });
      expect(messages.map((m) => m.content)).toEqual(["60", "60", "60", "60"]);
      expect(spin.control?.concurrency).toEqual({ group: pool.name, limit: 2 }); // size × (1 + ahead)
    });

    it("leaves a tool's own limit alone", () => {
      const pool = testPool();
      const own = pool.tool({ name: "own", description: "", schema: anyArgs, module: fixture, control: { concurrency: 1, idempotent: true } });
      expect(own.control).toEqual({ concurrency: 1, idempotent: true });
    });
  });

  describe("when the tool runs elsewhere", () => {
    it("answers handler_raised, saying it needs a pool", async () => {
      const tool = isolatedTool({ name: "iso", description: "", schema: z.object({}), module: fixture });
      const { messages } = await runToolCalls([call("a", "iso")], [tool]);
      expect(must(messages[0]).content).toContain("runs in a worker thread");
    });
  });
});
