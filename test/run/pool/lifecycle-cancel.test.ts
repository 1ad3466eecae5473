import { asyncScheduler, take } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, ok, runToolCalls, streamToolCalls, type HandlerResult, type ToolEvent } from "../../../src/index.js";
import { anyArgs, call, countingController, countingScheduler, flushMicrotasks } from "../../support/helpers.js";
import { must } from "../../support/must.js";
import { controlledTool, instant } from "./lifecycle-tools.js";

describe("cancellation", () => {
  afterEach(() => vi.useRealTimers());

  it("unsubscribing aborts every running handler, starts nothing new and leaves no timer", async () => {
    const scheduler = countingScheduler(asyncScheduler);
    const { tool, pending } = controlledTool();
    const subscription = streamToolCalls(
      Array.from({ length: 5 }, (_, i) => call(`c${i}`, "slow")),
      [tool],
      { maxConcurrency: 2, scheduler },
    ).subscribe();
    expect(pending).toHaveLength(2);
    // One deadline action for the pool, armed for the earliest call, not one timer per call.
    expect(scheduler.live).toBe(1);
    subscription.unsubscribe();
    expect(pending.map((p) => p.ctx.signal.aborted)).toEqual([true, true]);
    expect((must(pending[0]).ctx.signal.reason as DOMException).name).toBe("AbortError");
    expect(scheduler.live).toBe(0);
    pending[0]?.settle(ok(1));
    await flushMicrotasks();
    expect(pending).toHaveLength(2);
  });

  it("unsubscribing while seeing `started` keeps that call's handler from running", () => {
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler });
    const events: ToolEvent[] = [];
    streamToolCalls([call("c0", "t"), call("c1", "t")], [tool])
      .pipe(take(1))
      .subscribe((e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("aborting opts.signal aborts running handlers with its reason and errors the stream with it", async () => {
    const { tool, pending } = controlledTool();
    const counted = countingController();
    const reason = new Error("user pressed stop");
    const failure = new Promise((resolve) =>
      streamToolCalls(
        Array.from({ length: 3 }, (_, i) => call(`c${i}`, "slow")),
        [tool],
        { maxConcurrency: 2, signal: counted.controller.signal },
      ).subscribe({
        error: resolve,
      }),
    );
    expect(counted.listeners).toBe(1);
    counted.controller.abort(reason);
    expect(await failure).toBe(reason);
    expect(pending.map((p) => p.ctx.signal.reason)).toEqual([reason, reason]);
    expect(pending).toHaveLength(2);
    expect(counted.listeners).toBe(0);
  });

  it("runToolCalls rejects with the signal's reason", async () => {
    const { tool } = controlledTool();
    const controller = new AbortController();
    const done = runToolCalls([call("c0", "slow")], [tool], { signal: controller.signal });
    controller.abort("stop");
    await expect(done).rejects.toBe("stop");
  });

  it("an already aborted signal runs nothing", async () => {
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler });
    await expect(runToolCalls([call("c0", "t")], [tool], { signal: AbortSignal.abort("early") })).rejects.toBe("early");
    expect(handler).not.toHaveBeenCalled();
  });

  it("leaves no listener on opts.signal after completing or after unsubscribe", async () => {
    const counted = countingController();
    await runToolCalls([call("c0", "instant")], [instant], { signal: counted.controller.signal });
    expect(counted.listeners).toBe(0);
    const { tool } = controlledTool();
    const subscription = streamToolCalls([call("c0", "slow")], [tool], { signal: counted.controller.signal }).subscribe();
    expect(counted.listeners).toBe(1);
    subscription.unsubscribe();
    expect(counted.listeners).toBe(0);
  });
});

describe("cancellation from inside a running handler", () => {
  it("a handler that aborts opts.signal itself has its ctx.signal aborted and leaves no deadline timer", async () => {
    const scheduler = countingScheduler(asyncScheduler);
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const first = defineTool({ name: "first", description: "", schema: anyArgs, handler: async () => ok(1) });
    const stopper = defineTool({
      name: "stopper",
      description: "",
      schema: anyArgs,
      handler: (_a, ctx) => {
        signal = ctx.signal;
        controller.abort(new Error("stop"));
        return new Promise<HandlerResult>(() => {});
      },
    });
    const done = runToolCalls([call("c0", "first"), call("c1", "stopper")], [first, stopper], {
      maxConcurrency: 1,
      scheduler,
      signal: controller.signal,
    });
    await expect(done).rejects.toThrow("stop");
    expect(signal?.aborted).toBe(true);
    expect((must(signal).reason as Error).message).toBe("stop");
    expect(scheduler.live).toBe(0);
  });
});
