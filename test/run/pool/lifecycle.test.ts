import { availableParallelism } from "node:os";
import { asyncScheduler, take } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, error, ok, runToolCalls, streamToolCalls, ToolError, type HandlerResult, type ToolEvent, type ToolExecutor } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { z } from "zod";
import { manualScheduler } from "../../support/manual-scheduler.js";
import { anyArgs, call, countingController, countingScheduler, deferred, eventsOf, flushMicrotasks } from "../../support/helpers.js";
import { must } from "../../support/must.js";

/** A tool whose calls wait for the test to settle them, recording each one's ctx. */
function controlledTool(name = "slow") {
  const pending: { ctx: HandlerContext; settle: (r: HandlerResult) => void }[] = [];
  const tool = defineTool({
    name,
    description: "",
    schema: anyArgs,
    handler: (_args, ctx) => {
      const d = deferred<HandlerResult>();
      pending.push({ ctx, settle: d.resolve });
      return d.promise;
    },
  });
  return { tool, pending };
}

const never = defineTool({ name: "never", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
const instant = defineTool({ name: "instant", description: "", schema: anyArgs, handler: () => ok("instant") });

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

describe("the handler's context", () => {
  it("carries context, sessionId, requestId, the call and the engine", async () => {
    let seen: HandlerContext | undefined;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_a, ctx) => {
        seen = ctx;
        return ok(1);
      },
    });
    const engine = { context: { tenant: "e" } };
    const c = call("c0", "t", { a: 1 });
    await runToolCalls([c], [tool], { engine, context: { tenant: "o" }, sessionId: "s1", requestId: "r1" });
    expect(seen).toMatchObject({ context: { tenant: "o" }, sessionId: "s1", requestId: "r1", toolCall: c, engine });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    await runToolCalls([c], [tool], { engine });
    expect(seen?.context).toEqual({ tenant: "e" });
    await runToolCalls([c], [tool]);
    expect(seen).toMatchObject({ context: {}, sessionId: undefined, requestId: undefined, engine: undefined });
  });

  it("takes the executor and encoder from the engine unless the options give their own", async () => {
    const fromEngine: ToolExecutor = { execute: () => ok("engine") };
    const fromOptions: ToolExecutor = { execute: () => ok("options") };
    const engine = { toolExecutor: fromEngine, toolResultEncoder: { encode: (v: unknown) => `E:${String(v)}`, encodeError: String } };
    expect((await runToolCalls([call("c0", "instant")], [instant], { engine })).messages[0]?.content).toBe("E:engine");
    expect((await runToolCalls([call("c0", "instant")], [instant], { engine, toolExecutor: fromOptions })).messages[0]?.content).toBe("E:options");
  });
});

describe("a custom executor", () => {
  const run = async (execute: ToolExecutor["execute"]) => (await eventsOf([call("c0", "instant")], [instant], { toolExecutor: { execute } }))[1];

  it("that throws gives handler_exit with the thrown value as cause", async () => {
    const boom = new Error("worker died");
    expect(
      await run(() => {
        throw boom;
      }),
    ).toMatchObject({ result: { type: "error", reason: { reason: "handler_exit", cause: boom, toolCallId: "c0" } } });
    expect(
      await run(() => {
        throw "gone";
      }),
    ).toMatchObject({ result: { reason: { reason: "handler_exit", cause: { thrown: "gone" } } } });
  });

  it("that rejects gives handler_exit", async () => {
    expect(await run(() => Promise.reject(new Error("lost")))).toMatchObject({ result: { reason: { reason: "handler_exit" } } });
  });

  it("that returns an illegal shape gives invalid_return", async () => {
    expect(await run(() => 42 as never)).toMatchObject({ result: { reason: { reason: "invalid_return", cause: 42 } } });
    expect(await run(async () => ({ type: "nope" }) as never)).toMatchObject({ result: { reason: { reason: "invalid_return" } } });
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

describe("the deadline and async validation", () => {
  it("starts the handler's clock when the handler starts, not while async refinements run", async () => {
    const scheduler = manualScheduler();
    const check = deferred<boolean>();
    const handler = vi.fn(() => new Promise<HandlerResult>(() => {}));
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ name: z.string().refine(() => check.promise, "taken") }),
      handler,
    });
    const completed: [number, unknown][] = [];
    streamToolCalls([call("c0", "t", { name: "x" })], [tool], { scheduler, toolTimeout: 1_000 }).subscribe((e) => {
      if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.result]);
    });
    await scheduler.advance(600);
    expect(handler).not.toHaveBeenCalled();
    check.resolve(true);
    await scheduler.advance(999);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(completed).toEqual([]);
    await scheduler.advance(1);
    expect(completed).toEqual([[1_600, error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining({ settled: false }) }))]]);
    expect(scheduler.live).toBe(0);
  });

  it("bounds an async validation that never settles by toolTimeout (issue 9.11)", async () => {
    const scheduler = manualScheduler();
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ name: z.string().refine(() => new Promise<boolean>(() => {}), "taken") }),
      handler,
    });
    const messages: [number, string][] = [];
    streamToolCalls([call("c0", "t", { name: "x" })], [tool], { scheduler, toolTimeout: 50 }).subscribe((e) => {
      if (e.type === "tool_result_encoded") messages.push([scheduler.now(), e.content]);
    });
    await scheduler.advance(49);
    expect(messages).toEqual([]);
    await scheduler.advance(1);
    expect(messages).toEqual([[50, '{"error":"timeout: the arguments of tool t were still being validated after 50 ms"}']]);
    expect(handler).not.toHaveBeenCalled();
    expect(scheduler.live).toBe(0);
  });
});
