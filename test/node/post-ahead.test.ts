import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { runToolCalls, streamToolCalls } from "../../src/index.js";
import { call, fixtureTool, reportsLog, testPool, until } from "./pool-helpers.js";

// A pool posts a busy thread its next call (`ahead: 1`), whose deadline waits for the thread to
// take it. Each test has one thread and no spare, so the second call is the one posted ahead.

/** The content of each call's message, by id. */
async function contents(events: Promise<{ messages: readonly { toolCallId: string; content: unknown }[] }>): Promise<Record<string, unknown>> {
  return Object.fromEntries((await events).messages.map((m) => [m.toolCallId, m.content]));
}

describe("workerPool, a call posted ahead to a busy thread", () => {
  it("starts its deadline when the thread takes it, not when it is posted", async () => {
    const pool = testPool({ size: 1, spares: 0 });
    await pool.warm();
    const spin = fixtureTool(pool, "spin");
    // 400 + 300 ms in series: the second call's 300 ms fits its 600 ms only if its wait is not counted.
    const calls = [call("a", "spin", { ms: 400 }), call("b", "spin", { ms: 300 })];
    expect(await contents(runToolCalls(calls, [spin], { toolExecutor: pool, toolTimeout: 600 }))).toEqual({ a: "400", b: "300" });
  });

  it("times out on its own handler's time once taken", async () => {
    const pool = testPool({ size: 1, spares: 0 });
    await pool.warm();
    const spin = fixtureTool(pool, "spin");
    const forever = fixtureTool(pool, "cooperative");
    const calls = [call("a", "spin", { ms: 300 }), call("b", "cooperative")];
    const seen = await contents(runToolCalls(calls, [spin, forever], { toolExecutor: pool, toolTimeout: 500 }));
    expect(seen.a).toBe("300");
    expect(seen.b).toContain("timed out after 500 ms");
  });

  it("cancelled while it waits, never runs, even behind a call that blocks its thread", async () => {
    const pool = testPool({ size: 1, spares: 0 });
    await pool.warm();
    const spin = fixtureTool(pool, "spin");
    const exit = fixtureTool(pool, "exit"); // would end the thread, were it run
    const cancel = new Subject<string>();
    const { reports, onCallReport } = reportsLog();
    const results = new Map<string, unknown>();
    await new Promise<void>((resolve, reject) => {
      streamToolCalls([call("a", "spin", { ms: 300 }), call("b", "exit")], [spin, exit], { toolExecutor: pool, cancel, onCallReport }).subscribe({
        next: (e) => {
          if (e.type === "tool_result_encoded") results.set(e.toolCallId, e.content);
          // Cancelled while the first call blocks the thread: the second waits posted ahead, its abort message behind it.
          if (e.type === "tool_execution_started" && e.toolCallId === "b") setTimeout(() => cancel.next("b"), 50);
        },
        error: reject,
        complete: resolve,
      });
    });
    expect(results.get("a")).toBe("300");
    expect(results.get("b")).toContain("cancelled");
    await until(() => reports.some((r) => r.type === "late_settlement"));
    // The runner answered the cancel at once; the pool's own word comes after: the handler never started.
    expect(reports.find((r) => r.type === "late_settlement")).toMatchObject({
      result: { type: "error", reason: { name: "CallCancelledError", started: false } },
    });
    expect(pool.stats()).toMatchObject({ threads: 1, starting: 0 }); // the first thread, never ended by `exit`
  });

  it("runs on another thread when its thread crashes on the call before it", async () => {
    const pool = testPool({ size: 1, spares: 0 });
    await pool.warm();
    const exit = fixtureTool(pool, "exit");
    const echo = fixtureTool(pool, "default", "echo");
    const seen = await contents(runToolCalls([call("a", "exit"), call("b", "echo", { n: 1 })], [exit, echo], { toolExecutor: pool }));
    expect(seen.a).toContain("handler_exit");
    expect(seen.b).toBe('{"n":1}');
  });

  it("runs on another thread when the call before it blocks its thread until it is terminated", async () => {
    const pool = testPool({ size: 1, spares: 0, grace: 50 });
    await pool.warm();
    const forever = fixtureTool(pool, "forever");
    const echo = fixtureTool(pool, "default", "echo");
    const calls = [call("a", "forever"), call("b", "echo", { n: 2 })];
    const seen = await contents(runToolCalls(calls, [forever, echo], { toolExecutor: pool, toolTimeout: 200 }));
    expect(seen.a).toContain("timed out after 200 ms");
    expect(seen.b).toBe('{"n":2}');
  });

  // Found by the differential property (a one-thread pool): the call before it aborted, the thread
  // gave this call back unstarted, and the pool sent its handler's next call to that thread without
  // the handler's definition, which had gone with the dropped call.
  it("runs on the same thread after the thread gave it back, its handler defined there", async () => {
    const pool = testPool({ size: 1, spares: 0, grace: 1_000 });
    await pool.warm();
    const cooperative = fixtureTool(pool, "cooperative");
    const echo = fixtureTool(pool, "default", "echo");
    const calls = [call("a", "cooperative"), call("b", "echo", { n: 3 })];
    const seen = await contents(runToolCalls(calls, [cooperative, echo], { toolExecutor: pool, toolTimeout: 200 }));
    expect(seen.a).toContain("timed out after 200 ms");
    expect(seen.b).toBe('{"n":3}');
    expect(pool.stats().threads).toBe(1); // the same thread, which settled the first call in its grace
  });
});
