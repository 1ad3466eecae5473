import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, type CallReport, type HandlerResult, type ToolResolver } from "../../../src/index.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

describe("honest timeouts", () => {
  it("reports, after completed, that a timed-out handler settled after all, and when", async () => {
    const scheduler = manualScheduler();
    const late = deferred<HandlerResult>();
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => late.promise });
    const order: string[] = [];
    const reports: CallReport[] = [];
    streamToolCalls([call("a", "t")], [tool], {
      scheduler,
      toolTimeout: 100,
      onCallReport: (r) => {
        reports.push(r);
        order.push(r.type);
      },
    }).subscribe({ next: (e) => order.push(e.type), complete: () => order.push("complete") });
    await scheduler.advance(100);
    await scheduler.advance(250);
    late.resolve(ok("finally"));
    await flushMicrotasks();
    expect(order).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded", "complete", "late_settlement"]);
    expect(reports).toEqual([
      {
        type: "late_settlement",
        index: 0,
        toolCallId: "a",
        toolName: "t",
        attempt: 1,
        abandoned: "timeout",
        settled: true,
        result: ok("finally"),
        lateBy: 250,
      },
    ]);
    expect(scheduler.live).toBe(0);
  });

  it("reports a handler still running after settleGrace, once", async () => {
    const scheduler = manualScheduler();
    const late = deferred<HandlerResult>();
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => late.promise });
    const reports: CallReport[] = [];
    streamToolCalls([call("a", "t")], [tool], { scheduler, toolTimeout: 100, settleGrace: 1_000, onCallReport: (r) => reports.push(r) }).subscribe();
    await scheduler.advance(1_099);
    expect(reports).toEqual([]);
    await scheduler.advance(1);
    late.resolve(ok("too late to tell"));
    await flushMicrotasks();
    expect(reports).toEqual([
      { type: "late_settlement", index: 0, toolCallId: "a", toolName: "t", attempt: 1, abandoned: "timeout", settled: false, grace: 1_000 },
    ]);
  });

  it("watches nothing without a listener, and stops watching when the stream is unsubscribed", async () => {
    const scheduler = manualScheduler();
    const never = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
    streamToolCalls([call("a", "t"), call("b", "t")], [never], { scheduler, toolTimeout: 100, maxConcurrency: 1 }).subscribe();
    await scheduler.advance(1_000);
    expect(scheduler.live).toBe(0);

    const reports: CallReport[] = [];
    const subscription = streamToolCalls([call("a", "t"), call("b", "t")], [never], {
      scheduler,
      toolTimeout: 100,
      maxConcurrency: 1,
      onCallReport: (r) => reports.push(r),
    }).subscribe();
    await scheduler.advance(100);
    expect(scheduler.live).toBe(2); // b's deadline, a's watch
    subscription.unsubscribe();
    expect(scheduler.live).toBe(0);
    await scheduler.advance(10_000);
    expect(reports).toEqual([]);
  });

  it("drops a recipe's step reports once its parent call has timed out", async () => {
    const scheduler = manualScheduler();
    const gate = deferred<{ ok: string }>();
    const resolver: ToolResolver = {
      availableTools: () => [
        defineTool({ name: "research", description: "", schema: anyArgs }),
        defineTool({ name: "fetch", description: "", schema: anyArgs }),
      ],
      resolve: () => gate.promise,
      dispatchRecipe: (name) =>
        name === "research"
          ? () => ({
              serial: [
                { tool: "fetch", arguments: { url: "1" } },
                { tool: "fetch", arguments: { url: "2" } },
              ],
            })
          : undefined,
    };
    const types: string[] = [];
    streamToolCalls([call("c1", "research")], resolver, { scheduler, toolTimeout: 50, onCallReport: (r) => types.push(r.type) }).subscribe((e) =>
      types.push(e.type),
    );
    await scheduler.advance(50);
    gate.resolve({ ok: "page" });
    await flushMicrotasks();
    expect(types.slice(0, 4)).toEqual(["tool_execution_started", "recipe_step_started", "tool_execution_completed", "tool_result_encoded"]);
    expect(types.filter((t) => t.startsWith("recipe_step"))).toEqual(["recipe_step_started"]);
  });
});
