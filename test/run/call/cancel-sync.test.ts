/**
 * `RunOptions.cancel` reaches a call wherever it is: in its `started` event, in its handler's
 * synchronous part, in a retry's backoff. Only an unknown or already answered id is ignored. A
 * cancel source that errors fails the batch with its error.
 */
import { config, Subject, throwError } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CallCancelledError,
  defineTool,
  error,
  ok,
  runToolCalls,
  streamToolCalls,
  ToolError,
  type CallReport,
  type HandlerResult,
  type ToolEvent,
} from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

const completedOf = (events: ToolEvent[]) => events.filter((e) => e.type === "tool_execution_completed").map((e) => [e.toolCallId, e.result]);

const previous = config.onUnhandledError;
afterEach(() => {
  config.onUnhandledError = previous;
});

describe("a cancel emitted while the call starts", () => {
  it("from the observer of its `started` event: it does not run, and is answered cancelled before it started", async () => {
    const handler = vi.fn(() => ok("ran"));
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler });
    const cancel = new Subject<string>();
    const events: ToolEvent[] = [];
    streamToolCalls([call("a", "t"), call("b", "t")], [tool], { cancel, maxConcurrency: 1 }).subscribe((e) => {
      events.push(e);
      if (e.type === "tool_execution_started" && e.toolCallId === "a") cancel.next("a");
    });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(completedOf(events)).toEqual([
      ["a", error(new CallCancelledError("t", "a", false))],
      ["b", ok("ran")],
    ]);
    expect(events.filter((e) => e.toolCallId === "a").map((e) => e.type)).toEqual([
      "tool_execution_started",
      "tool_execution_completed",
      "tool_result_encoded",
    ]);
  });

  it("from onCallReport on its first progress report: the handler sees its signal aborted, the call answers cancelled, and its return is a late settlement", async () => {
    const cancel = new Subject<string>();
    let abortedAfterReport: boolean | undefined;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        ctx.progress({ progress: 1 });
        abortedAfterReport = ctx.signal.aborted;
        return ok("finished anyway");
      },
    });
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("a", "t")], [tool], {
      cancel,
      onCallReport: (r) => {
        reports.push(r);
        if (r.type === "progress") cancel.next({ toolCallId: "a", reason: "stop" } as never);
      },
    });
    expect(abortedAfterReport).toBe(true);
    expect(messages[0]?.content).toMatch(/tool t was cancelled while it ran \(stop\)/);
    expect(reports.map((r) => r.type)).toEqual(["progress", "late_settlement"]);
    expect(reports[1]).toMatchObject({ abandoned: "cancelled", settled: true, result: ok("finished anyway") });
  });

  it("from the handler's own synchronous part, before it hands back its promise", async () => {
    const cancel = new Subject<string>();
    const later = deferred<HandlerResult>();
    let signal: AbortSignal | undefined;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx: HandlerContext) => {
        signal = ctx.signal;
        cancel.next("a");
        return later.promise;
      },
    });
    const events: ToolEvent[] = [];
    let done = false;
    streamToolCalls([call("a", "t")], [tool], { cancel }).subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
    expect(signal?.aborted).toBe(true);
    expect(done).toBe(true);
    expect(completedOf(events)).toEqual([["a", error(expect.any(CallCancelledError))]]);
    later.resolve(ok("late"));
    await flushMicrotasks();
    expect(events).toHaveLength(3);
  });
});

describe("a cancel while the call waits to retry", () => {
  it("says no attempt was running, and after which attempt", async () => {
    const scheduler = manualScheduler();
    const tool = defineTool({
      name: "flaky",
      description: "",
      schema: anyArgs,
      control: { idempotent: true, retry: { attempts: 3, delay: 100, jitter: false } },
      handler: async () => error(new ToolError("handler_raised")),
    });
    const cancel = new Subject<string>();
    const events: ToolEvent[] = [];
    streamToolCalls([call("c", "flaky")], [tool], { scheduler, cancel }).subscribe((e) => events.push(e));
    await flushMicrotasks();
    cancel.next("c");
    const [[, result]] = completedOf(events) as [[string, { type: "error"; reason: CallCancelledError }]];
    expect(result.reason).toBeInstanceOf(CallCancelledError);
    expect(result.reason.retryAfterAttempt).toBe(1);
    expect(result.reason.message).toBe(
      "tool flaky was cancelled while it waited to retry after attempt 1 failed: no attempt was running, and part of its work may have happened in the failed attempt",
    );
  });
});

describe("a cancel source that errors", () => {
  it("fails the batch with its error and aborts what runs; nothing goes unhandled", async () => {
    const reported: unknown[] = [];
    config.onUnhandledError = (e) => reported.push(e);
    const cancel = new Subject<string>();
    const signals: AbortSignal[] = [];
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        signals.push(ctx.signal);
        return new Promise<HandlerResult>(() => {});
      },
    });
    const done = runToolCalls([call("a", "t"), call("b", "t")], [tool], { cancel });
    await flushMicrotasks();
    const broken = new Error("cancel source broke");
    cancel.error(broken);
    await expect(done).rejects.toBe(broken);
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reported).toEqual([]);
  });

  it("fails it before anything runs when it errors at once", async () => {
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler });
    const broken = new Error("no cancel source");
    await expect(runToolCalls([call("a", "t")], [tool], { cancel: throwError(() => broken) })).rejects.toBe(broken);
    expect(handler).not.toHaveBeenCalled();
  });
});
