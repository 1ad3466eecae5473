import { config, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls, streamToolCalls, type HandlerResult, type ToolCall, type ToolEvent } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { held } from "../../support/held-tool.js";
import { anyArgs, call, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

describe("RunOptions.cancel", () => {
  describe("when it emits a malformed request", () => {
    it.each([
      ["a non-string reason", { toolCallId: "a", reason: 5 }],
      ["null", null],
      ["an object without toolCallId", { reason: "stop" }],
    ])("reports %s as a TypeError naming `cancel`, and cancels nothing", async (_what, request) => {
      const reported: unknown[] = [];
      const previous = config.onUnhandledError;
      config.onUnhandledError = (e) => reported.push(e);
      try {
        const { tool, pending } = held();
        const cancel = new Subject<unknown>();
        const done = runToolCalls([call("a", "slow")], [tool], { cancel: cancel as never });
        await flushMicrotasks();
        cancel.next(request);
        expect(pending.get("a")?.ctx.signal.aborted).toBe(false);
        pending.get("a")?.settle(ok("a done"));
        expect((await done).messages[0]?.content).toBe("a done");
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(reported).toHaveLength(1);
        expect(reported[0]).toBeInstanceOf(TypeError);
        expect(String(reported[0])).toMatch(/^TypeError: Expected `cancel` to emit a call id or \{ toolCallId: string, reason\?: string \}, got /);
      } finally {
        config.onUnhandledError = previous;
      }
    });
  });
});

describe("retries", () => {
  describe("when a call is cancelled by id while it waits out a backoff", () => {
    it("answers it cancelled once, starts no further attempt, reports no abandoned attempt and leaves no timer", async () => {
      const scheduler = manualScheduler();
      let attempts = 0;
      const tool = defineTool({
        name: "flaky",
        description: "",
        schema: anyArgs,
        control: { idempotent: true, retry: { attempts: 3, delay: 100, jitter: false } },
        handler: () => {
          attempts++;
          throw new Error("flaky");
        },
      });
      const cancel = new Subject<string>();
      const events: ToolEvent[] = [];
      let completed = false;
      const reports: string[] = [];
      streamToolCalls([call("c", "flaky")], [tool], { scheduler, cancel, onCallReport: (r) => reports.push(r.type) }).subscribe({
        next: (e) => events.push(e),
        complete: () => (completed = true),
      });
      await flushMicrotasks();
      expect(attempts).toBe(1);
      cancel.next("c");
      expect(completed).toBe(true);
      expect(scheduler.live).toBe(0);
      await scheduler.advance(10_000);
      expect(attempts).toBe(1);
      // The failed attempt had ended: nothing is abandoned, so nothing is reported as still running.
      expect(reports).toEqual(["attempt_failed"]);
      const encoded = events.filter((e) => e.type === "tool_result_encoded");
      expect(encoded).toHaveLength(1);
      expect(encoded[0]).toMatchObject({ isError: true });
      expect((encoded[0] as { content: string }).content).toContain("cancelled");
    });
  });
});

describe("ctx.progress", () => {
  describe("when an attempt that timed out keeps reporting progress", () => {
    it("reports only the current attempt's progress, never the abandoned one's", async () => {
      const scheduler = manualScheduler();
      const contexts: HandlerContext[] = [];
      const tool = defineTool({
        name: "slow",
        description: "",
        schema: anyArgs,
        control: { idempotent: true, retry: { attempts: 2, delay: 10, jitter: false } },
        handler: (_args, ctx) => {
          contexts.push(ctx);
          return new Promise<HandlerResult>(() => {});
        },
      });
      const progress: unknown[] = [];
      streamToolCalls([call("c", "slow")], [tool], {
        scheduler,
        toolTimeout: 100,
        onCallReport: (r) => {
          if (r.type === "progress") progress.push({ attempt: r.attempt, progress: r.progress });
        },
      }).subscribe();
      await scheduler.advance(100);
      contexts[0]?.progress({ progress: 1 });
      await scheduler.advance(10);
      expect(contexts).toHaveLength(2);
      contexts[0]?.progress({ progress: 2 });
      contexts[1]?.progress({ progress: 3 });
      await scheduler.advance(100);
      contexts[1]?.progress({ progress: 4 });
      expect(progress).toEqual([{ attempt: 2, progress: 3 }]);
    });
  });
});

describe("streamToolCalls with a standing backlog", () => {
  it("keeps each event's index equal to its call's arrival order after the queue lets go of started calls", async () => {
    const total = 3_000;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: async ({ i }) => ok(i as number),
    });
    const calls = new Subject<ToolCall>();
    let pushed = 0;
    const push = () => {
      calls.next({ id: `c${pushed}`, name: "t", arguments: { i: pushed } });
      pushed++;
    };
    const wrong: string[] = [];
    let answered = 0;
    await new Promise<void>((resolve, reject) => {
      streamToolCalls(calls, [tool], { maxConcurrency: 2 }).subscribe({
        next(e) {
          if (e.toolCallId !== `c${e.index}`) wrong.push(`${e.type} ${e.index} ${e.toolCallId}`);
          if (e.type !== "tool_result_encoded") return;
          answered++;
          if (pushed < total) push();
          else if (answered === total) calls.complete();
        },
        error: reject,
        complete: resolve,
      });
      // Twenty calls always wait behind the two running: the queue never empties.
      for (let i = 0; i < 22; i++) push();
    });
    expect(answered).toBe(total);
    expect(wrong).toEqual([]);
  });
});
