import { asyncScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, error, ok, streamToolCalls, type CallReport, type HandlerResult, type HandlerReturn, type ToolEvent } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { Deadlines, type Timed } from "../../../src/run/deadlines/deadlines";
import { anyArgs, call, countingScheduler, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

/** Run `calls` on a manual clock and record `[time, event]` for each completed event and report. */
function record(scheduler: ManualScheduler, calls: Parameters<typeof streamToolCalls>[0], tools: Parameters<typeof streamToolCalls>[1], options: RunOptions) {
  const completed: [number, string, HandlerResult][] = [];
  const reports: [number, CallReport][] = [];
  /** Event and report types of every call, in the order they came. */
  const order: string[] = [];
  let done = false;
  const onCallReport = (r: CallReport) => {
    reports.push([scheduler.now(), r]);
    order.push(`${r.toolCallId} ${r.type}`);
  };
  streamToolCalls(calls, tools, { scheduler, ...options, onCallReport }).subscribe({
    next: (e: ToolEvent) => {
      order.push(`${e.toolCallId} ${e.type}`);
      if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.toolCallId, e.result]);
    },
    complete: () => (done = true),
  });
  return { completed, reports, order, done: () => done };
}

/** The tool "t" these tests run: any arguments, and the handler under test. */
function toolT(handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn) {
  return defineTool({ name: "t", description: "", schema: anyArgs, handler });
}

const timeoutWith = (metadata: Record<string, unknown>) => error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining(metadata) }));

describe("toolTimeout", () => {
  describe("when the handler blocks the event loop (issue 9.10)", () => {
    it("counts from the handler's start: 600 ms of synchronous work then a wait times out at 1,000, not 1,600", async () => {
      const scheduler = manualScheduler();
      const tool = toolT(() => {
        scheduler.block(600);
        return new Promise<HandlerResult>(() => {});
      });
      const run = record(scheduler, [call("c0", "t")], [tool], { toolTimeout: 1_000 });
      await scheduler.advance(399);
      expect(run.completed).toEqual([]);
      await scheduler.advance(1);
      expect(run.completed).toEqual([[1_000, "c0", timeoutWith({ deadline: "toolTimeout", settled: false, toolTimeout: 1_000 })]]);
    });

    it("answers timeout, settled: true, when a synchronous handler returns after its deadline", async () => {
      const scheduler = manualScheduler();
      const tool = toolT(() => {
        scheduler.block(1_200);
        return ok("too late");
      });
      const run = record(scheduler, [call("c0", "t")], [tool], { toolTimeout: 1_000 });
      expect(run.completed).toEqual([[1_200, "c0", timeoutWith({ deadline: "toolTimeout", settled: true })]]);
      expect(run.done()).toBe(true);
    });

    it("answers timeout when an async handler's result arrives after its deadline, before the timer could fire", async () => {
      const scheduler = manualScheduler();
      const tool = toolT(async () => {
        await Promise.resolve();
        scheduler.block(1_500);
        return ok("too late");
      });
      const run = record(scheduler, [call("c0", "t")], [tool], { toolTimeout: 1_000 });
      await flushMicrotasks();
      expect(run.completed).toEqual([[1_500, "c0", timeoutWith({ settled: true })]]);
      expect(scheduler.live).toBe(0);
    });

    it("still answers a handler that returns in time with its own result", async () => {
      const scheduler = manualScheduler();
      const tool = toolT(() => {
        scheduler.block(999);
        return ok("in time");
      });
      const run = record(scheduler, [call("c0", "t")], [tool], { toolTimeout: 1_000 });
      expect(run.completed).toEqual([[999, "c0", ok("in time")]]);
    });
  });

  it("keeps one scheduled action for all of a pool's deadlines, and none once the batch is done", async () => {
    const scheduler = countingScheduler(asyncScheduler);
    const tool = toolT(async ({ n }) => ok(n));
    const events: ToolEvent[] = [];
    await new Promise<void>((resolve) =>
      streamToolCalls(
        Array.from({ length: 50 }, (_, i) => call(`c${i}`, "t", { n: i })),
        [tool],
        { scheduler, maxConcurrency: 8 },
      ).subscribe({ next: (e) => events.push(e), complete: resolve }),
    );
    expect(events.filter((e) => e.type === "tool_result_encoded")).toHaveLength(50);
    expect(scheduler.scheduled).toBeLessThanOrEqual(2);
    expect(scheduler.live).toBe(0);
  });

  it("fires each of many staggered deadlines at its own time, in virtual time", async () => {
    const scheduler = manualScheduler();
    const never = defineTool({ name: "never", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
    const quick = defineTool({ name: "quick", description: "", schema: anyArgs, handler: async () => ok(1) });
    // One slot: each call starts when the one before it answers, so their deadlines are staggered.
    const calls = [call("a", "never"), call("b", "quick"), call("c", "never"), call("d", "never")];
    const run = record(scheduler, calls, [never, quick], { toolTimeout: 100, maxConcurrency: 1 });
    await scheduler.advance(1_000);
    expect(run.completed.map(([t, id]) => [t, id])).toEqual([
      [100, "a"],
      [100, "b"],
      [200, "c"],
      [300, "d"],
    ]);
    expect(run.done()).toBe(true);
    // Only the watch on the three abandoned handlers is left, for settleGrace (default 5 s).
    expect(scheduler.live).toBe(3);
    await scheduler.advance(5_000);
    expect(run.reports.map(([t, r]) => [t, r.toolCallId, r.type, "settled" in r && r.settled])).toEqual([
      [5_100, "a", "late_settlement", false],
      [5_200, "c", "late_settlement", false],
      [5_300, "d", "late_settlement", false],
    ]);
    expect(scheduler.live).toBe(0);
  });
});

describe("toolIdleTimeout", () => {
  /** A handler that reports progress at the given times (ms after its start), then never settles. */
  function heartbeat(scheduler: ManualScheduler, at: readonly number[]) {
    return defineTool({
      name: "long",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        const start = scheduler.now();
        at.forEach((t, i) => {
          scheduler.schedule(() => ctx.progress({ progress: i + 1, total: at.length }), t - (scheduler.now() - start));
        });
        return new Promise<HandlerResult>(() => {});
      },
    });
  }

  it("answers timeout when no progress is reported for toolIdleTimeout, each report restarting it", async () => {
    const scheduler = manualScheduler();
    const run = record(scheduler, [call("c0", "long")], [heartbeat(scheduler, [80, 160, 240])], { toolTimeout: 10_000, toolIdleTimeout: 100 });
    await scheduler.advance(339);
    expect(run.completed).toEqual([]);
    await scheduler.advance(1);
    expect(run.completed).toEqual([[340, "c0", timeoutWith({ deadline: "toolIdleTimeout", toolIdleTimeout: 100, settled: false })]]);
    expect(run.reports.map(([t, r]) => [t, r.type])).toEqual([
      [80, "progress"],
      [160, "progress"],
      [240, "progress"],
    ]);
  });

  it("is capped by toolTimeout, however often progress comes", async () => {
    const scheduler = manualScheduler();
    const beats = Array.from({ length: 20 }, (_, i) => (i + 1) * 50);
    const run = record(scheduler, [call("c0", "long")], [heartbeat(scheduler, beats)], { toolTimeout: 500, toolIdleTimeout: 100 });
    await scheduler.advance(2_000);
    expect(run.completed).toEqual([[500, "c0", timeoutWith({ deadline: "toolTimeout" })]]);
    // Progress never comes after `completed`, even when a report and the deadline fall due together.
    const completedAt = run.order.indexOf("c0 tool_execution_completed");
    expect(run.order.slice(completedAt + 1).filter((o) => o.endsWith(" progress"))).toEqual([]);
    expect(run.reports.length).toBeGreaterThanOrEqual(9);
  });

  it("checks a synchronous handler's silence too", () => {
    const scheduler = manualScheduler();
    const tool = toolT((_args, ctx) => {
      scheduler.block(90);
      ctx.progress({ progress: 1 });
      scheduler.block(90);
      ctx.progress({ progress: 2 });
      scheduler.block(101);
      return ok("done");
    });
    const run = record(scheduler, [call("c0", "t")], [tool], { toolIdleTimeout: 100 });
    expect(run.completed).toEqual([[281, "c0", timeoutWith({ deadline: "toolIdleTimeout", settled: true })]]);
  });

  it("rejects a bad value with a TypeError naming it", () => {
    expect(() => streamToolCalls([], [], { toolIdleTimeout: 0 })).toThrow(/`toolIdleTimeout` to be Infinity or a positive number/);
    expect(() => streamToolCalls([], [], { toolIdleTimeout: "5" as never })).toThrow(/`toolIdleTimeout`.*"5"/);
  });
});

describe("Deadlines", () => {
  function timed(log: string[], name: string): Timed {
    return { due: 0, slot: -1, wake: (now) => log.push(`${name}@${now}`) };
  }

  it("wakes entries in due order whatever the order they were added or removed in", async () => {
    const scheduler = manualScheduler();
    const deadlines = new Deadlines(scheduler);
    const log: string[] = [];
    const entries = [30, 10, 50, 20, 40].map((due) => {
      const t = timed(log, `t${due}`);
      deadlines.add(t, due);
      return t;
    });
    deadlines.remove(entries[3] as Timed);
    expect(scheduler.live).toBe(1);
    await scheduler.advance(100);
    expect(log).toEqual(["t10@10", "t30@30", "t40@40", "t50@50"]);
    expect(scheduler.live).toBe(0);
  });

  it("cancels its action when the last entry is removed", () => {
    const scheduler = manualScheduler();
    const deadlines = new Deadlines(scheduler);
    const t = timed([], "t");
    deadlines.add(t, 10);
    expect(scheduler.live).toBe(1);
    deadlines.remove(t);
    deadlines.remove(t);
    expect(scheduler.live).toBe(0);
  });
});
