import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  ok,
  reportFate,
  streamToolCalls,
  type CallReport,
  type ExecutorFate,
  type HandlerContext,
  type HandlerResult,
  type ToolExecutor,
} from "../../../src/index.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

/** An executor whose handlers never settle by themselves; it says each abandoned attempt's fate as told. */
function fatefulExecutor(scheduler: ManualScheduler, fate: ExecutorFate, after: number | "at once"): ToolExecutor {
  return {
    execute: (_tool, _args, ctx) =>
      new Promise<HandlerResult>(() => {
        ctx.signal.addEventListener("abort", () => {
          if (after === "at once") reportFate(ctx, fate);
          else scheduler.schedule(() => reportFate(ctx, fate), after);
        });
      }),
  };
}

const tool = defineTool({ name: "t", description: "", schema: anyArgs });

describe("reportFate", () => {
  describe("when the runner abandoned the attempt", () => {
    it("reports the kill at once, with how long after the deadline it came, and nothing more", async () => {
      const scheduler = manualScheduler();
      const reports: CallReport[] = [];
      streamToolCalls([call("a", "t")], [tool], {
        scheduler,
        toolTimeout: 100,
        settleGrace: 1_000,
        toolExecutor: fatefulExecutor(scheduler, "killed", 30),
        onCallReport: (r) => reports.push(r),
      }).subscribe();
      await scheduler.advance(130);
      expect(reports).toEqual([
        { type: "late_settlement", index: 0, toolCallId: "a", toolName: "t", attempt: 1, abandoned: "timeout", settled: false, grace: 30, fate: "killed" },
      ]);
      await scheduler.advance(5_000);
      expect(reports).toHaveLength(1);
      expect(scheduler.live).toBe(0);
    });

    it("takes a fate said from the executor's own abort listener (a cancel sent on the abort)", async () => {
      const scheduler = manualScheduler();
      const reports: CallReport[] = [];
      const cancel = new Subject<string>();
      streamToolCalls([call("a", "t")], [tool], {
        scheduler,
        cancel,
        toolExecutor: fatefulExecutor(scheduler, "cancel_sent", "at once"),
        onCallReport: (r) => reports.push(r),
      }).subscribe();
      await flushMicrotasks();
      cancel.next("a");
      expect(reports).toEqual([
        {
          type: "late_settlement",
          index: 0,
          toolCallId: "a",
          toolName: "t",
          attempt: 1,
          abandoned: "cancelled",
          settled: false,
          grace: 0,
          fate: "cancel_sent",
        },
      ]);
      expect(scheduler.live).toBe(0);
    });

    it("ignores a fate that comes after the runner reported the handler still running", async () => {
      const scheduler = manualScheduler();
      const reports: CallReport[] = [];
      streamToolCalls([call("a", "t")], [tool], {
        scheduler,
        toolTimeout: 100,
        settleGrace: 50,
        toolExecutor: fatefulExecutor(scheduler, "killed", 200),
        onCallReport: (r) => reports.push(r),
      }).subscribe();
      await scheduler.advance(1_000);
      expect(reports).toEqual([
        { type: "late_settlement", index: 0, toolCallId: "a", toolName: "t", attempt: 1, abandoned: "timeout", settled: false, grace: 50 },
      ]);
    });
  });

  describe("when the runner did not abandon the attempt", () => {
    it("ignores a fate for a call still waited for, and for one dropped by unsubscribing", async () => {
      const scheduler = manualScheduler();
      const reports: CallReport[] = [];
      let seen: HandlerContext | undefined;
      const gate = deferred<HandlerResult>();
      const executor: ToolExecutor = {
        execute: (_tool, _args, ctx) => {
          seen = ctx;
          ctx.signal.addEventListener("abort", () => reportFate(ctx, "killed"));
          return gate.promise;
        },
      };
      const subscription = streamToolCalls([call("a", "t")], [tool], { scheduler, toolExecutor: executor, onCallReport: (r) => reports.push(r) }).subscribe();
      reportFate(seen as HandlerContext, "killed");
      subscription.unsubscribe();
      gate.resolve(ok(1));
      await scheduler.advance(10_000);
      expect(reports).toEqual([]);
    });

    it("does nothing for a context the runner did not make", () => {
      const foreign = { toolCall: call("a", "t"), signal: new AbortController().signal } as unknown as HandlerContext;
      expect(() => reportFate(foreign, "killed")).not.toThrow();
    });
  });

  it("rejects a fate outside the set, naming the parameter", () => {
    expect(() => reportFate({} as HandlerContext, "stopped" as ExecutorFate)).toThrow(
      new TypeError('Expected `fate` to be "killed" or "cancel_sent", got "stopped"'),
    );
  });
});
