import { config, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import {
  CallCancelledError,
  defineTool,
  error,
  ok,
  runToolCalls,
  streamToolCalls,
  type CallReport,
  type HandlerResult,
  type ToolEvent,
} from "../../../src/index.js";
import type { CallCancellation } from "../../../src/run/options/run-options";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

function held() {
  const pending = new Map<string, { ctx: HandlerContext; settle: (r: HandlerResult) => void }>();
  const tool = defineTool({
    name: "slow",
    description: "",
    schema: anyArgs,
    handler: (_args, ctx) => {
      const d = deferred<HandlerResult>();
      pending.set(ctx.toolCall.id, { ctx, settle: d.resolve });
      return d.promise;
    },
  });
  return { tool, pending };
}

describe("cancel", () => {
  describe("when the call is running", () => {
    it("aborts its ctx.signal with a CallCancelledError, answers it with a text the model can read, and the batch goes on", async () => {
      const { tool, pending } = held();
      const cancel = new Subject<string | CallCancellation>();
      const done = runToolCalls([call("a", "slow"), call("b", "slow")], [tool], { cancel });
      await flushMicrotasks();
      cancel.next({ toolCallId: "a", reason: "stopped by the user" });
      const ctx = pending.get("a")?.ctx;
      expect(ctx?.signal.aborted).toBe(true);
      expect(ctx?.signal.reason).toBeInstanceOf(CallCancelledError);
      pending.get("b")?.settle(ok("b done"));
      const { messages } = await done;
      expect(messages).toEqual([
        {
          role: "tool",
          toolCallId: "a",
          name: "slow",
          content:
            '{"error":"tool slow was cancelled while it ran (stopped by the user): it stopped before it finished, and part of its work may have happened"}',
          isError: true,
        },
        { role: "tool", toolCallId: "b", name: "slow", content: "b done", isError: false },
      ]);
    });

    it("routes the cancellation through onToolError, as any failure", async () => {
      const { tool } = held();
      const cancel = new Subject<string>();
      const terms: unknown[] = [];
      const done = runToolCalls([call("a", "slow")], [tool], {
        cancel,
        onToolError: (_c, e) => {
          terms.push(e);
          return { continue: "cancelled, ask again if needed" };
        },
      });
      await flushMicrotasks();
      cancel.next("a");
      expect((await done).messages[0]?.content).toBe("cancelled, ask again if needed");
      expect(terms).toEqual([expect.objectContaining({ name: "CallCancelledError", toolCallId: "a", started: true, cancelReason: undefined })]);
    });

    it("reports on the side channel when the abandoned handler settles after all", async () => {
      const { tool, pending } = held();
      const cancel = new Subject<string>();
      const scheduler = manualScheduler();
      const reports: CallReport[] = [];
      const events: ToolEvent[] = [];
      streamToolCalls([call("a", "slow")], [tool], { cancel, scheduler, onCallReport: (r) => reports.push(r) }).subscribe((e) => events.push(e));
      await scheduler.advance(10);
      cancel.next("a");
      expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
      await scheduler.advance(30);
      pending.get("a")?.settle(ok("finished anyway"));
      await flushMicrotasks();
      expect(reports).toEqual([
        {
          type: "late_settlement",
          index: 0,
          toolCallId: "a",
          toolName: "slow",
          attempt: 1,
          abandoned: "cancelled",
          settled: true,
          result: ok("finished anyway"),
          lateBy: 30,
        },
      ]);
    });
  });

  describe("when the call is still queued", () => {
    it("answers it at once, without taking a slot, saying it did not run; its handler never runs", async () => {
      const { tool, pending } = held();
      const cancel = new Subject<string>();
      const events: ToolEvent[] = [];
      streamToolCalls([call("a", "slow"), call("b", "slow"), call("c", "slow")], [tool], { cancel, maxConcurrency: 1 }).subscribe((e) => events.push(e));
      cancel.next("b");
      expect(events.map((e) => `${e.toolCallId} ${e.type}`)).toEqual([
        "a tool_execution_started",
        "b tool_execution_started",
        "b tool_execution_completed",
        "b tool_result_encoded",
      ]);
      expect(events[3]).toMatchObject({ index: 1, content: '{"error":"tool slow was cancelled before it started: it did not run"}' });
      pending.get("a")?.settle(ok(1));
      await flushMicrotasks();
      expect([...pending.keys()]).toEqual(["a", "c"]);
    });

    it("answers a call waiting for its tool's own limit", async () => {
      const gate = deferred<HandlerResult>();
      const tool = defineTool({ name: "one", description: "", schema: anyArgs, control: { concurrency: 1 }, handler: () => gate.promise });
      const cancel = new Subject<string>();
      const done = runToolCalls([call("a", "one"), call("b", "one")], [tool], { cancel, maxConcurrency: 4 });
      cancel.next("b");
      gate.resolve(ok("a"));
      expect((await done).messages.map((m) => m.content)).toEqual(["a", '{"error":"tool one was cancelled before it started: it did not run"}']);
    });
  });

  it("ignores ids it does not know, or already answered", async () => {
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ok(1) });
    const cancel = new Subject<string>();
    const done = runToolCalls([call("a", "t")], [tool], { cancel });
    cancel.next("a");
    cancel.next("zzz");
    expect((await done).messages[0]?.content).toBe("1");
  });

  it("unsubscribes from cancel when the batch ends", async () => {
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: async () => ok(1) });
    const cancel = new Subject<string>();
    await runToolCalls([call("a", "t")], [tool], { cancel });
    expect(cancel.observed).toBe(false);
  });

  it("reports a malformed cancel request as a TypeError on its own, losing nothing", async () => {
    const reported: unknown[] = [];
    const previous = config.onUnhandledError;
    config.onUnhandledError = (e) => reported.push(e);
    try {
      const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: async () => ok(1) });
      const cancel = new Subject<string>();
      const done = runToolCalls([call("a", "t")], [tool], { cancel });
      cancel.next(42 as never);
      expect((await done).messages[0]?.content).toBe("1");
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(String(reported[0])).toMatch(/TypeError: Expected `cancel` to emit a call id or \{ toolCallId: string, reason\?: string \}, got 42/);
    } finally {
      config.onUnhandledError = previous;
    }
  });

  it("rejects a cancel option that is not an Observable", () => {
    expect(() => streamToolCalls([], [], { cancel: ["a"] as never })).toThrow(/Expected `cancel` to be an Observable of call ids, got an array/);
  });

  it("CallCancelledError is not a ToolError: the closed set stays closed", () => {
    const e = new CallCancelledError("t", "c1", false);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("CallCancelledError");
    expect("reason" in e).toBe(false);
    expect(error(e).reason).toBe(e);
  });
});
