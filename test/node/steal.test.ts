import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { runToolCalls, streamToolCalls } from "../../src/index.js";
import { call, fixtureTool, reportsLog, testPool, until } from "./pool-helpers.js";

// A call posted ahead behind a slow call is taken by a thread that goes idle with nothing queued
// (work stealing), claimed through the busy thread's cell so that only one of them starts it.

describe("workerPool, a call posted ahead when another thread goes idle", () => {
  it("runs on the idle thread at once, not behind the slow call it was posted to", async () => {
    const pool = testPool({ size: 2, spares: 0, ahead: 1 });
    await pool.warm();
    const latch = fixtureTool(pool, "latch");
    const echo = fixtureTool(pool, "default", "echo");
    const gates = new Int32Array(new SharedArrayBuffer(8));
    const results = new Map<string, unknown>();
    // a and b hold both threads; c and d are posted ahead, one behind each. When b's gate opens, its
    // thread runs the call behind b, then must take the one behind a, whose gate stays shut.
    const calls = [call("a", "latch", { slot: 0 }), call("b", "latch", { slot: 1 }), call("c", "echo", { n: 1 }), call("d", "echo", { n: 2 })];
    const done = new Promise<void>((resolve, reject) => {
      streamToolCalls(calls, [latch, echo], { toolExecutor: pool, context: { gates: gates.buffer } }).subscribe({
        next: (e) => {
          if (e.type === "tool_result_encoded") results.set(e.toolCallId, e.content);
        },
        error: reject,
        complete: resolve,
      });
    });
    await until(() => pool.stats().running === 2 && pool.stats().queued === 2);
    Atomics.store(gates, 1, 1);
    await until(() => results.has("c") && results.has("d"));
    expect(results.has("a")).toBe(false); // still held by its gate: c and d did not wait for it
    expect(Object.fromEntries(results)).toEqual({ b: "opened 1", c: '{"n":1}', d: '{"n":2}' });
    Atomics.store(gates, 0, 1);
    await done;
    expect(results.get("a")).toBe("opened 0");
  });

  it("starts each call exactly once while idle threads steal what is posted ahead", async () => {
    const pool = testPool({ size: 2, spares: 0, ahead: 1 });
    await pool.warm();
    const counted = fixtureTool(pool, "counted");
    const n = 400;
    const starts = new Int32Array(new SharedArrayBuffer(4 * n));
    // Uneven handler times (0–2 ms, blocking) leave one thread idle while the other holds a call ahead.
    const calls = Array.from({ length: n }, (_, i) => call(`c${i}`, "counted", { i, ms: i % 3 }));
    const { messages } = await runToolCalls(calls, [counted], { toolExecutor: pool, context: { starts: starts.buffer } });
    expect(messages.map((m) => m.content)).toEqual(calls.map((_, i) => String(i)));
    expect([...starts].filter((count) => count !== 1)).toEqual([]);
  });

  it("cancelled while it waits posted ahead, is answered not-started at once, not when its thread comes to it", async () => {
    const pool = testPool({ size: 1, spares: 0, ahead: 1 });
    await pool.warm();
    // It blocks its thread: the thread reads b's cancel only once it is done.
    const latch = fixtureTool(pool, "blockingLatch", "latch");
    const echo = fixtureTool(pool, "default", "echo");
    const gates = new Int32Array(new SharedArrayBuffer(8));
    const cancel = new Subject<string>();
    const { reports, onCallReport } = reportsLog();
    const done = new Promise<void>((resolve, reject) => {
      const calls = [call("a", "latch", { slot: 0, entered: 1 }), call("b", "echo", { n: 1 })];
      streamToolCalls(calls, [latch, echo], { toolExecutor: pool, cancel, onCallReport, context: { gates: gates.buffer } }).subscribe({
        error: reject,
        complete: resolve,
      });
    });
    await until(() => Atomics.load(gates, 1) === 1 && pool.stats().queued === 1);
    cancel.next("b");
    // The pool's own word, while a still holds the thread: b never started, and never will.
    await until(() => reports.some((r) => r.type === "late_settlement"));
    expect(reports.find((r) => r.type === "late_settlement")).toMatchObject({
      toolCallId: "b",
      result: { type: "error", reason: { name: "CallCancelledError", started: false } },
    });
    expect(pool.stats()).toMatchObject({ running: 1, queued: 0 });
    Atomics.store(gates, 0, 1);
    Atomics.notify(gates, 0);
    await done;
  });
});
