import { config, Subject } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, ok, runToolCalls, streamToolCalls, type CallReport, type HandlerResult } from "../../../src/index.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";

describe("onCallReport", () => {
  describe("when a handler reports progress", () => {
    it("delivers each report with the call's index, id, name and attempt, before the call's completed event", async () => {
      const tool = defineTool({
        name: "download",
        description: "",
        schema: anyArgs,
        handler: async (_args, ctx) => {
          ctx.progress({ progress: 1, total: 3, message: "page 1 of 3" });
          await Promise.resolve();
          ctx.progress({ progress: 3, total: 3, data: ["row"] });
          return ok("done");
        },
      });
      const log: (CallReport | string)[] = [];
      const { messages } = await runToolCalls([call("a", "download"), call("b", "download")], [tool], {
        onCallReport: (r) => log.push(r),
      });
      expect(messages.map((m) => m.content)).toEqual(["done", "done"]);
      expect(log).toEqual([
        { type: "progress", index: 0, toolCallId: "a", toolName: "download", attempt: 1, progress: 1, total: 3, message: "page 1 of 3" },
        { type: "progress", index: 1, toolCallId: "b", toolName: "download", attempt: 1, progress: 1, total: 3, message: "page 1 of 3" },
        { type: "progress", index: 0, toolCallId: "a", toolName: "download", attempt: 1, progress: 3, total: 3, data: ["row"] },
        { type: "progress", index: 1, toolCallId: "b", toolName: "download", attempt: 1, progress: 3, total: 3, data: ["row"] },
      ]);
    });

    it("drops reports made after the call was answered, so none arrives after completed", async () => {
      const later = deferred<void>();
      const tool = defineTool({
        name: "t",
        description: "",
        schema: anyArgs,
        handler: (_args, ctx) => {
          void later.promise.then(() => ctx.progress({ progress: 99 }));
          return new Promise<HandlerResult>(() => {});
        },
      });
      const order: string[] = [];
      const subscription = streamToolCalls([call("a", "t")], [tool], {
        toolTimeout: 20,
        onCallReport: (r) => order.push(r.type),
      }).subscribe((e) => order.push(e.type));
      await new Promise((resolve) => setTimeout(resolve, 60));
      later.resolve();
      await flushMicrotasks();
      expect(order).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
      subscription.unsubscribe();
    });

    it("works with an Observable of calls", async () => {
      const calls = new Subject<ReturnType<typeof call>>();
      const tool = defineTool({
        name: "t",
        description: "",
        schema: anyArgs,
        handler: (_args, ctx) => {
          ctx.progress({ progress: 0.5 });
          return ok(1);
        },
      });
      const reports: CallReport[] = [];
      streamToolCalls(calls, [tool], { onCallReport: (r) => reports.push(r) }).subscribe();
      calls.next(call("x", "t"));
      calls.next(call("y", "t"));
      expect(reports.map((r) => [r.index, r.toolCallId])).toEqual([
        [0, "x"],
        [1, "y"],
      ]);
    });

    it("costs nothing to call without a listener", async () => {
      const tool = defineTool({
        name: "t",
        description: "",
        schema: anyArgs,
        handler: (_args, ctx) => {
          ctx.progress({ progress: 1 });
          return ok(1);
        },
      });
      expect((await runToolCalls([call("a", "t")], [tool])).messages[0]?.content).toBe("1");
    });

    it("drops a malformed ctx.progress and reports its TypeError through config.onUnhandledError; the call goes on", async () => {
      const reported: unknown[] = [];
      const previous = config.onUnhandledError;
      config.onUnhandledError = (e) => reported.push(e);
      try {
        const reports: unknown[] = [];
        const tool = defineTool({
          name: "t",
          description: "",
          schema: anyArgs,
          handler: (_args, ctx) => {
            ctx.progress(50 as never);
            return ok(1);
          },
        });
        const { messages } = await runToolCalls([call("a", "t")], [tool], { onCallReport: (r) => reports.push(r) });
        expect(messages[0]?.content).toBe("1");
        expect(reports).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(reported).toHaveLength(1);
        expect(String(reported[0])).toMatch(
          /^TypeError: Expected `ctx.progress` of tool t \(call a\) to get \{ progress: number.*got 50; the report was dropped/,
        );
      } finally {
        config.onUnhandledError = previous;
      }
    });
  });

  describe("when the listener throws", () => {
    afterEach(() => vi.useRealTimers());

    it("still answers every call, and rethrows the listener's error on its own", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout"] });
      const tool = defineTool({
        name: "t",
        description: "",
        schema: anyArgs,
        handler: (_args, ctx) => {
          ctx.progress({ progress: 1 });
          return ok(1);
        },
      });
      const boom = new Error("listener bug");
      const { messages } = await runToolCalls([call("a", "t"), call("b", "t")], [tool], {
        onCallReport: () => {
          throw boom;
        },
      });
      expect(messages.map((m) => m.content)).toEqual(["1", "1"]);
      expect(() => vi.runOnlyPendingTimers()).toThrow(boom);
    });
  });

  it("rejects a listener that is not a function, and onRecipeStep, which it replaced", () => {
    expect(() => streamToolCalls([], [], { onCallReport: "log" as never })).toThrow(/Expected `onCallReport` to be a function, got "log"/);
    expect(() => streamToolCalls([], [], { onRecipeStep: () => {} } as never)).toThrow(/`onRecipeStep` was replaced by `onCallReport`/);
  });
});
