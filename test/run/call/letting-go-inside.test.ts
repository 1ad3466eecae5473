import { Subject, takeUntil, type Subscription } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, streamToolCalls, type HandlerResult, type HandlerReturn, type ToolCall, type ToolEvent } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { held } from "../../support/held-tool.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

/** Tool "t": any arguments, the handler under test. */
function toolT(handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn) {
  return defineTool({ name: "t", description: "", schema: anyArgs, handler });
}

describe("a handler that lets go of the stream itself", () => {
  /**
   * Stream one call of a tool whose handler (or, with `viaExecutor`, a custom executor) unsubscribes
   * the stream, then does `then`.
   */
  function selfUnsubscribing(then: () => HandlerReturn, viaExecutor: boolean) {
    const scheduler = manualScheduler();
    const input = new Subject<ToolCall>();
    const seen: string[] = [];
    let policyCalls = 0;
    let signal: AbortSignal | undefined;
    let subscription: Subscription | undefined;
    const letGo = (ctx: HandlerContext) => {
      subscription?.unsubscribe();
      signal = ctx.signal;
      return then();
    };
    const tool = toolT((_args, ctx) => letGo(ctx));
    subscription = streamToolCalls(input, [tool], {
      scheduler,
      ...(viaExecutor ? { toolExecutor: { execute: (_tool, _args, ctx) => letGo(ctx) as HandlerResult | Promise<HandlerResult> } } : {}),
      onToolError: () => {
        policyCalls++;
        return { continue: "answered" };
      },
    }).subscribe((e) => seen.push(e.type));
    input.next(call("c", "t"));
    return { seen, policyCalls: () => policyCalls, reason: () => signal?.reason, timers: () => scheduler.live };
  }

  const thens = [
    ["returns a result", () => ok("done")],
    [
      "throws",
      () => {
        throw new Error("after unsubscribing");
      },
    ],
    ["returns a promise that rejects", () => Promise.reject(new Error("after unsubscribing"))],
  ] as const;
  it.each([
    ...thens.map(([what, then]) => [`a handler ${what}`, then, false] as const),
    ...thens.map(([what, then]) => [`a custom executor ${what}`, then, true] as const),
  ])("aborts ctx.signal as unsubscribed, answers nothing and leaves no timer, when %s after it", async (_what, then, viaExecutor) => {
    const r = selfUnsubscribing(then, viaExecutor);
    await flushMicrotasks();
    expect(r.seen).toEqual(["tool_execution_started"]);
    expect(r.policyCalls()).toBe(0);
    expect(r.reason()).toBeInstanceOf(DOMException);
    expect(r.reason()).toMatchObject({ name: "AbortError", message: "The tool stream was unsubscribed" });
    expect(r.timers()).toBe(0);
  });
});

describe("a consumer that lets go while a handler of the first synchronous pass runs", () => {
  it("aborts that handler's ctx.signal as unsubscribed, starts no other call and answers none", async () => {
    const stop = new Subject<void>();
    const signals: AbortSignal[] = [];
    let runs = 0;
    const tool = toolT((_args, ctx) => {
      runs++;
      signals.push(ctx.signal);
      // The consumer's `takeUntil` lets go here, before the stream's subscribe has even returned.
      stop.next();
      return ok("done");
    });
    const seen: string[] = [];
    streamToolCalls([call("a", "t"), call("b", "t")], [tool], { maxConcurrency: 1 })
      .pipe(takeUntil(stop))
      .subscribe((e) => seen.push(`${e.toolCallId} ${e.type}`));
    await flushMicrotasks();
    expect(runs).toBe(1);
    expect(seen).toEqual(["a tool_execution_started"]);
    expect(signals[0]?.reason).toBeInstanceOf(DOMException);
    expect(signals[0]?.reason).toMatchObject({ name: "AbortError", message: "The tool stream was unsubscribed" });
  });
});

describe("cancelling a call by id during its asynchronous argument validation", () => {
  it("answers it cancelled, saying it did not run, and never runs the handler", async () => {
    const gate = deferred<boolean>();
    let checks = 0;
    let runs = 0;
    const tool = defineTool({
      name: "t",
      description: "",
      // zod first parses synchronously and drops that promise: only the second one is gated.
      schema: z
        .object({})
        .loose()
        .refine(() => (++checks === 1 ? new Promise<boolean>(() => {}) : gate.promise)),
      handler: () => {
        runs++;
        return ok("ran");
      },
    });
    const cancel = new Subject<string>();
    const events: ToolEvent[] = [];
    const finished = new Promise<void>((resolve) =>
      streamToolCalls([call("c", "t")], [tool], { cancel }).subscribe({ next: (e) => events.push(e), complete: resolve }),
    );
    await flushMicrotasks();
    cancel.next("c");
    await finished;
    gate.resolve(true);
    await flushMicrotasks();
    expect(runs).toBe(0);
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
    expect(events[2]).toMatchObject({ isError: true, content: '{"error":"tool t was cancelled before it started: it did not run"}' });
  });
});

describe("a consumer reacting to a cancellation or an answer", () => {
  it("reaches neither the policy nor the encoder for a queued call cancelled by id, when it lets go on that call's started", async () => {
    const { tool, pending } = held();
    const cancel = new Subject<string>();
    let policyCalls = 0;
    let subscription: Subscription | undefined;
    subscription = streamToolCalls([call("a", "slow"), call("b", "slow")], [tool], {
      cancel,
      maxConcurrency: 1,
      onToolError: () => {
        policyCalls++;
        return { continue: "answered" };
      },
    }).subscribe((e) => e.toolCallId === "b" && subscription?.unsubscribe());
    await flushMicrotasks();
    cancel.next("b");
    expect(policyCalls).toBe(0);
    expect(pending.get("a")?.ctx.signal.aborted).toBe(true);
  });

  it("answers a call once when the cancel request is repeated while its cancellation is answered", async () => {
    const { tool } = held();
    const cancel = new Subject<string>();
    const tails: string[] = [];
    const done = new Promise<void>((resolve) =>
      streamToolCalls([call("a", "slow")], [tool], { cancel }).subscribe({
        next: (e) => {
          if (e.type !== "tool_result_encoded") return;
          tails.push(e.toolCallId);
          if (tails.length === 1) cancel.next("a");
        },
        complete: resolve,
      }),
    );
    await flushMicrotasks();
    cancel.next("a");
    await done;
    expect(tails).toEqual(["a"]);
  });

  it("leaves a finished call's ctx.signal alone when it lets go on seeing that call's answer", async () => {
    const { tool, pending } = held();
    let subscription: Subscription | undefined;
    subscription = streamToolCalls([call("a", "slow"), call("b", "slow")], [tool]).subscribe(
      (e) => e.type === "tool_result_encoded" && subscription?.unsubscribe(),
    );
    await flushMicrotasks();
    pending.get("a")?.settle(ok("done"));
    await flushMicrotasks();
    expect(pending.get("a")?.ctx.signal.aborted).toBe(false);
    expect(pending.get("b")?.ctx.signal.aborted).toBe(true);
  });
});
