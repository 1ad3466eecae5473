import { Subject, type Subscribable } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, type HandlerResult, type HandlerReturn, type ToolCall, type ToolControl } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred } from "../../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

/** Tool `name`: any arguments, the handler under test, an optional control. */
function toolNamed(name: string, handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn, control?: ToolControl) {
  return defineTool({ name, description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });
}

const hang = () => new Promise<HandlerResult>(() => {});

/** Run `calls` on a manual clock; `answered` lists `[time, id, reason or "ok"]` per completed event. */
function timed(
  scheduler: ManualScheduler,
  calls: readonly ToolCall[] | Subscribable<ToolCall>,
  tools: Parameters<typeof streamToolCalls>[1],
  options: RunOptions,
) {
  const answered: [number, string, string][] = [];
  streamToolCalls(calls, tools, { scheduler, ...options }).subscribe((e) => {
    if (e.type !== "tool_execution_completed") return;
    const { result } = e;
    // A ToolError's reason, or the name of another error (CallCancelledError).
    const term = result.type === "error" ? ((result.reason as { reason?: string }).reason ?? (result.reason as Error).name) : result.type;
    answered.push([scheduler.now(), e.toolCallId, term]);
  });
  return answered;
}

describe("streamToolCalls, each call's toolTimeout counts from its own handler's start", () => {
  describe("when the call before it in the same pass blocked the event loop and returned", () => {
    it("starts the next call's deadline after that work, not before it", async () => {
      const scheduler = manualScheduler();
      const busy = toolNamed("busy", () => {
        scheduler.block(600);
        return ok("done");
      });
      const answered = timed(scheduler, [call("a", "busy"), call("b", "wait")], [busy, toolNamed("wait", hang)], { toolTimeout: 1_000 });
      await scheduler.advance(999);
      expect(answered).toEqual([[600, "a", "ok"]]);
      await scheduler.advance(601);
      expect(answered).toEqual([
        [600, "a", "ok"],
        [1_600, "b", "timeout"],
      ]);
    });
  });

  describe("when the call before it in the same pass blocked the event loop, then returned a promise", () => {
    it("starts the next call's deadline after that work, not before it", async () => {
      const scheduler = manualScheduler();
      const busy = toolNamed("busy", () => {
        scheduler.block(600);
        return hang();
      });
      const answered = timed(scheduler, [call("a", "busy"), call("b", "wait")], [busy, toolNamed("wait", hang)], { toolTimeout: 1_000 });
      await scheduler.advance(2_000);
      expect(answered).toEqual([
        [1_000, "a", "timeout"],
        [1_600, "b", "timeout"],
      ]);
    });
  });

  describe("when earlier attempts of a retried call failed synchronously after their backoffs", () => {
    it("gives the attempt that waits its whole toolTimeout from its own start", async () => {
      const scheduler = manualScheduler();
      let attempts = 0;
      // Attempt 1 at 0 and attempt 2 at 100 throw; attempt 3 starts at 100 + 200 = 300 and waits.
      const flaky = toolNamed(
        "flaky",
        () => {
          if (++attempts < 3) throw new Error("no");
          return hang();
        },
        {
          idempotent: true,
          retry: { attempts: 3, delay: 100, jitter: false },
        },
      );
      const answered = timed(scheduler, [call("a", "flaky")], [flaky], { toolTimeout: 1_000 });
      await scheduler.advance(1_299);
      expect(attempts).toBe(3);
      expect(answered).toEqual([]);
      await scheduler.advance(1);
      expect(answered).toEqual([[1_300, "a", "timeout"]]);
    });
  });

  describe("when a streamed call arrives while another waits out a retry's backoff", () => {
    it("starts the new call's deadline when it arrives", async () => {
      const scheduler = manualScheduler();
      const first = deferred<HandlerResult>();
      let attempts = 0;
      const flaky = toolNamed("flaky", () => (++attempts === 1 ? first.promise : hang()), {
        idempotent: true,
        retry: { attempts: 2, delay: 10_000, jitter: false },
      });
      const input = new Subject<ToolCall>();
      const answered = timed(scheduler, input, [flaky, toolNamed("wait", hang)], { toolTimeout: 1_000 });
      input.next(call("a", "flaky"));
      await scheduler.advance(100);
      first.reject(new Error("no"));
      await scheduler.advance(400);
      input.next(call("b", "wait"));
      await scheduler.advance(999);
      expect(answered).toEqual([]);
      await scheduler.advance(1);
      expect(answered).toEqual([[1_500, "b", "timeout"]]);
    });
  });

  describe("when a call is cancelled by id after an earlier attempt of it failed", () => {
    it("starts the queued call behind it when it is cancelled", async () => {
      const scheduler = manualScheduler();
      const first = deferred<HandlerResult>();
      let attempts = 0;
      const flaky = toolNamed("flaky", () => (++attempts === 1 ? first.promise : hang()), {
        idempotent: true,
        retry: { attempts: 2, delay: 100, jitter: false },
      });
      const cancel = new Subject<string>();
      const answered = timed(scheduler, [call("a", "flaky"), call("b", "wait")], [flaky, toolNamed("wait", hang)], {
        toolTimeout: 1_000,
        maxConcurrency: 1,
        cancel,
      });
      await scheduler.advance(100);
      first.reject(new Error("no"));
      // The failure settled at 100; attempt 2 runs from 200 until it is cancelled at 500.
      await scheduler.advance(400);
      expect(attempts).toBe(2);
      cancel.next("a");
      await scheduler.advance(999);
      expect(answered).toEqual([[500, "a", "CallCancelledError"]]);
      await scheduler.advance(1);
      expect(answered).toEqual([
        [500, "a", "CallCancelledError"],
        [1_500, "b", "timeout"],
      ]);
    });
  });
});

describe("streamToolCalls, calls fed from inside a handler", () => {
  it("runs 20,000 calls, each pushed synchronously by the handler before it, in order and without overflowing the stack", async () => {
    const total = 20_000;
    const input = new Subject<ToolCall>();
    const feeder = toolNamed("feed", ({ i }) => {
      const n = (i as number) + 1;
      if (n < total) input.next(call(`c${n}`, "feed", { i: n }));
      else input.complete();
      return ok(i);
    });
    const answered: number[] = [];
    const done = new Promise<void>((resolve, reject) =>
      streamToolCalls(input, [feeder], { maxConcurrency: 1 }).subscribe({
        next: (e) => e.type === "tool_result_encoded" && answered.push(e.index),
        error: reject,
        complete: resolve,
      }),
    );
    input.next(call("c0", "feed", { i: 0 }));
    await done;
    expect(answered).toHaveLength(total);
    expect(answered.every((index, k) => index === k)).toBe(true);
  });
});
