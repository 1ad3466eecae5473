import { availableParallelism } from "node:os";
import { asyncScheduler } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { describe, expect, it } from "vitest";
import { ok, runToolCalls, streamToolCalls, ToolError, type ToolEvent } from "../../../src/index.js";
import { call, countingScheduler, flushMicrotasks } from "../../support/helpers.js";
import { controlledTool, instant, never } from "./lifecycle-tools.js";

function newTestScheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe("concurrency", () => {
  it("emits started when a call takes its slot, not when it is queued", async () => {
    const { tool, pending } = controlledTool();
    const events: ToolEvent[] = [];
    streamToolCalls([call("c0", "slow"), call("c1", "slow"), call("c2", "slow")], [tool], { maxConcurrency: 1 }).subscribe((e) => events.push(e));
    expect(events.map((e) => `${e.index}:${e.type}`)).toEqual(["0:tool_execution_started"]);
    pending[0]?.settle(ok(0));
    await flushMicrotasks();
    expect(events.map((e) => `${e.index}:${e.type}`)).toEqual([
      "0:tool_execution_started",
      "0:tool_execution_completed",
      "0:tool_result_encoded",
      "1:tool_execution_started",
    ]);
    expect(pending).toHaveLength(2);
  });

  it("never runs more than maxConcurrency handlers at once", async () => {
    const { tool, pending } = controlledTool();
    const calls = Array.from({ length: 10 }, (_, i) => call(`c${i}`, "slow"));
    const done = runToolCalls(calls, [tool], { maxConcurrency: 3 });
    let peak = 0;
    let settled = 0;
    while (settled < 10) {
      await flushMicrotasks();
      const running = pending.length - settled;
      peak = Math.max(peak, running);
      expect(running).toBeLessThanOrEqual(3);
      pending[settled]?.settle(ok(settled));
      settled++;
    }
    expect((await done).messages).toHaveLength(10);
    expect(peak).toBe(3);
  });

  it("defaults to max(1, min(calls, 2 × cores))", async () => {
    const cap = 2 * availableParallelism();
    for (const n of [1, cap + 3]) {
      const { tool, pending } = controlledTool();
      const subscription = streamToolCalls(
        Array.from({ length: n }, (_, i) => call(`c${i}`, "slow")),
        [tool],
      ).subscribe();
      expect(pending).toHaveLength(Math.max(1, Math.min(n, cap)));
      subscription.unsubscribe();
    }
  });

  it("orders runToolCalls by input index whatever the completion order", async () => {
    const { tool, pending } = controlledTool();
    const done = runToolCalls([call("c0", "slow"), call("c1", "slow"), call("c2", "slow")], [tool], { maxConcurrency: 3 });
    for (const i of [2, 0, 1]) pending[i]?.settle(ok(i));
    const { messages } = await done;
    expect(messages.map((m) => [m.toolCallId, m.content])).toEqual([
      ["c0", "0"],
      ["c1", "1"],
      ["c2", "2"],
    ]);
  });

  it("the stream's messages are the batch's, in completion order", async () => {
    const { tool, pending } = controlledTool();
    const events: ToolEvent[] = [];
    const finished = new Promise<void>((resolve) =>
      streamToolCalls([call("c0", "slow"), call("c1", "slow")], [tool]).subscribe({ next: (e) => events.push(e), complete: resolve }),
    );
    pending[1]?.settle(ok("b"));
    await flushMicrotasks();
    pending[0]?.settle(ok("a"));
    await finished;
    expect(events.filter((e) => e.type === "tool_result_encoded").map((e) => e.index)).toEqual([1, 0]);
  });
});

describe("deadlines (virtual time)", () => {
  it("a handler past toolTimeout completes with a timeout ToolError at exactly the deadline", () => {
    const scheduler = newTestScheduler();
    const seen: [number, string, number][] = [];
    let completed: ToolEvent | undefined;
    scheduler.run(() => {
      streamToolCalls([call("c0", "never"), call("c1", "instant")], [never, instant], { toolTimeout: 100, scheduler }).subscribe((e) => {
        seen.push([scheduler.now(), e.type, e.index]);
        if (e.type === "tool_execution_completed" && e.index === 0) completed = e;
      });
    });
    expect(seen).toEqual([
      [0, "tool_execution_started", 0],
      [0, "tool_execution_started", 1],
      [0, "tool_execution_completed", 1],
      [0, "tool_result_encoded", 1],
      [100, "tool_execution_completed", 0],
      [100, "tool_result_encoded", 0],
    ]);
    const result = (completed as { result: { type: string; reason: ToolError } }).result;
    expect(result.type).toBe("error");
    expect(result.reason).toBeInstanceOf(ToolError);
    expect(result.reason).toMatchObject({ reason: "timeout", toolName: "never", toolCallId: "c0" });
  });

  it("counts from the handler's start, not from when the call was queued", () => {
    const scheduler = newTestScheduler();
    const timeouts: [number, number][] = [];
    scheduler.run(() => {
      streamToolCalls([call("c0", "never"), call("c1", "never")], [never], { toolTimeout: 100, maxConcurrency: 1, scheduler }).subscribe((e) => {
        if (e.type === "tool_execution_completed") timeouts.push([e.index, scheduler.now()]);
      });
    });
    expect(timeouts).toEqual([
      [0, 100],
      [1, 200],
    ]);
  });

  it("aborts the handler's ctx.signal with the timeout error, and ignores what it returns later", async () => {
    const scheduler = newTestScheduler();
    const { tool, pending } = controlledTool();
    const events: ToolEvent[] = [];
    scheduler.run(() => {
      streamToolCalls([call("c0", "slow")], [tool], { toolTimeout: 50, scheduler }).subscribe((e) => events.push(e));
    });
    const signal = pending[0]?.ctx.signal as AbortSignal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ToolError);
    expect(signal.reason).toBe((events[1] as { result: { reason: unknown } }).result.reason);
    pending[0]?.settle(ok("late"));
    await flushMicrotasks();
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
    expect(JSON.parse((events[2] as { content: string }).content).error).toMatch(/timeout: tool slow timed out after 50 ms/);
  });

  it("a handler that finishes in time leaves no timer behind", async () => {
    const scheduler = countingScheduler(asyncScheduler);
    const { tool, pending } = controlledTool();
    const done = runToolCalls([call("c0", "slow")], [tool], { scheduler });
    expect(scheduler.live).toBe(1);
    pending[0]?.settle(ok(1));
    await done;
    expect(scheduler.live).toBe(0);
  });

  it("schedules no timer for synchronous handlers or with toolTimeout Infinity", async () => {
    const scheduler = countingScheduler(asyncScheduler);
    await runToolCalls(
      Array.from({ length: 50 }, (_, i) => call(`c${i}`, "instant")),
      [instant],
      { scheduler },
    );
    const { tool, pending } = controlledTool();
    const done = runToolCalls([call("c0", "slow")], [tool], { scheduler, toolTimeout: Infinity });
    pending[0]?.settle(ok(1));
    await done;
    expect(scheduler.scheduled).toBe(0);
  });

  it("creates no AbortController for handlers that never read ctx.signal", async () => {
    const Original = globalThis.AbortController;
    let created = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        created++;
      }
    };
    try {
      await runToolCalls(
        Array.from({ length: 50 }, (_, i) => call(`c${i}`, "instant")),
        [instant],
      );
      expect(created).toBe(0);
    } finally {
      globalThis.AbortController = Original;
    }
  });
});
