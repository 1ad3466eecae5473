/**
 * A report after a deadline passed is too late, as a result after it already is: when the event
 * loop was blocked past a call's idle deadline, the timer could not fire, and the report that
 * finally comes must not revive the call.
 */
import { describe, expect, it } from "vitest";
import { defineTool, error, streamToolCalls, type CallReport, type HandlerResult, type ToolEvent } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

describe("a progress report that comes after the idle deadline passed", () => {
  it("times the call out then, as `toolIdleTimeout`, and is not delivered", async () => {
    const scheduler = manualScheduler();
    let ctx: HandlerContext | undefined;
    const never = deferred<HandlerResult>();
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, c) => {
        ctx = c;
        return never.promise;
      },
    });
    const completed: [number, HandlerResult][] = [];
    const reports: CallReport[] = [];
    streamToolCalls([call("a", "t")], [tool], { scheduler, toolIdleTimeout: 100, onCallReport: (r) => reports.push(r) }).subscribe((e: ToolEvent) => {
      if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.result]);
    });
    await flushMicrotasks();
    ctx?.progress({ progress: 1 });
    expect(reports.map((r) => r.type)).toEqual(["progress"]);
    // The event loop is blocked for 150 ms: the idle timer, due at 100, cannot fire.
    scheduler.block(150);
    ctx?.progress({ progress: 2 });
    expect(completed).toEqual([
      [150, error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining({ deadline: "toolIdleTimeout", toolIdleTimeout: 100 }) }))],
    ]);
    expect(reports.map((r) => r.type)).toEqual(["progress"]);
    expect(ctx?.signal.aborted).toBe(true);
  });

  it("a report before the deadline still restarts it", async () => {
    const scheduler = manualScheduler();
    let ctx: HandlerContext | undefined;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, c) => {
        ctx = c;
        return new Promise<HandlerResult>(() => {});
      },
    });
    const completed: number[] = [];
    streamToolCalls([call("a", "t")], [tool], { scheduler, toolIdleTimeout: 100 }).subscribe((e: ToolEvent) => {
      if (e.type === "tool_execution_completed") completed.push(scheduler.now());
    });
    await flushMicrotasks();
    scheduler.block(99);
    ctx?.progress({ progress: 1 });
    await scheduler.advance(100);
    expect(completed).toEqual([199]);
  });
});
