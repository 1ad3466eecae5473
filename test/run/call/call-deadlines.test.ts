import { BehaviorSubject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  error,
  ok,
  streamToolCalls,
  type CallReport,
  type HandlerResult,
  type HandlerReturn,
  type Tool,
  type ToolResolver,
  type ToolCall,
  type ToolControl,
  type ToolEvent,
} from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred } from "../../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

/**
 * Stream one call "c" of `tool` on a manual clock, logging `<time> <event or report type>`. The
 * input stays open until `endInput()`, so the stream would still show a second answer.
 */
function runOn(scheduler: ManualScheduler, tool: Tool, options: RunOptions = {}) {
  const log: string[] = [];
  const completed: [number, HandlerResult][] = [];
  const events: ToolEvent[] = [];
  const reports: CallReport[] = [];
  let done = false;
  const input = new BehaviorSubject<ToolCall>(call("c", tool.name));
  const subscription = streamToolCalls(input, [tool], {
    scheduler,
    ...options,
    onCallReport: (r) => {
      reports.push(r);
      log.push(`${scheduler.now()} ${r.type}`);
    },
  }).subscribe({
    next: (e) => {
      events.push(e);
      log.push(`${scheduler.now()} ${e.type}`);
      if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.result]);
    },
    complete: () => (done = true),
  });
  return { log, completed, events, reports, subscription, done: () => done, endInput: () => input.complete() };
}

/** Tool "t": any arguments, the handler under test, and an optional control. */
function toolT(handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn, control?: ToolControl) {
  return defineTool({ name: "t", description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });
}

const timeoutWith = (metadata: Record<string, unknown>) => error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining(metadata) }));
const hang = () => new Promise<HandlerResult>(() => {});

describe("deadlines of one call", () => {
  describe("when toolTimeout is Infinity and only toolIdleTimeout is set", () => {
    it("still times the call out once it reports no progress for that long", async () => {
      const scheduler = manualScheduler();
      const r = runOn(scheduler, toolT(hang), { toolTimeout: Infinity, toolIdleTimeout: 100 });
      await scheduler.advance(99);
      expect(r.completed).toEqual([]);
      await scheduler.advance(1);
      expect(r.completed).toEqual([[100, timeoutWith({ deadline: "toolIdleTimeout", toolIdleTimeout: 100 })]]);
    });
  });

  describe("when toolTimeout is Infinity and only a retry's totalTimeout is set", () => {
    it("still bounds the call by totalTimeout", async () => {
      const scheduler = manualScheduler();
      const tool = toolT(hang, { idempotent: true, retry: { attempts: 3, totalTimeout: 300 } });
      const r = runOn(scheduler, tool, { toolTimeout: Infinity });
      await scheduler.advance(299);
      expect(r.completed).toEqual([]);
      await scheduler.advance(1);
      expect(r.completed).toEqual([[300, timeoutWith({ deadline: "totalTimeout", totalTimeout: 300, attempts: 1 })]]);
    });
  });

  describe("when a retried call has no totalTimeout of its own", () => {
    it("bounds it by attempts × toolTimeout + (attempts − 1) × maxDelay, from the first attempt's start", async () => {
      const scheduler = manualScheduler();
      let attempts = 0;
      // Attempt 1 blocks 120 ms and throws: a timeout found on return. Backoff 50 ms; attempt 2
      // starts at 170 and hangs, so the bound of 2 × 100 + 1 × 50 = 250 cuts it before its own 270.
      const tool = toolT(
        () => {
          if (++attempts === 1) {
            scheduler.block(120);
            throw new Error("slow and broken");
          }
          return hang();
        },
        { idempotent: true, retry: { attempts: 2, delay: 50, maxDelay: 50, jitter: false } },
      );
      const r = runOn(scheduler, tool, { toolTimeout: 100 });
      await scheduler.advance(1_000);
      expect(attempts).toBe(2);
      expect(r.log).toEqual(["0 tool_execution_started", "120 attempt_failed", "250 tool_execution_completed", "250 tool_result_encoded"]);
      expect(r.completed).toEqual([[250, timeoutWith({ deadline: "totalTimeout", totalTimeout: 250, attempts: 2 })]]);
    });
  });
});

describe("asynchronous argument validation", () => {
  const validated = (check: () => Promise<boolean>, handler: () => HandlerReturn) =>
    defineTool({ name: "t", description: "", schema: z.object({}).loose().refine(check), handler });

  describe("when it settles only after toolTimeout answered the call", () => {
    it.each([
      ["resolves", (d: ReturnType<typeof deferred<boolean>>) => d.resolve(true)],
      ["rejects", (d: ReturnType<typeof deferred<boolean>>) => d.reject(new Error("refinement broke"))],
    ] as const)("never runs the handler and answers once when it %s", async (_how, settleIt) => {
      const scheduler = manualScheduler();
      const gate = deferred<boolean>();
      let runs = 0;
      // zod first parses synchronously and drops that promise: only the second one is gated.
      let checks = 0;
      const tool = validated(
        () => (++checks === 1 ? new Promise<boolean>(() => {}) : gate.promise),
        () => {
          runs++;
          return ok("ran");
        },
      );
      const r = runOn(scheduler, tool, { toolTimeout: 50 });
      await scheduler.advance(50);
      expect(r.completed).toEqual([[50, timeoutWith({ deadline: "toolTimeout", settled: false })]]);
      settleIt(gate);
      await scheduler.advance(100);
      expect(runs).toBe(0);
      expect(r.log).toEqual(["0 tool_execution_started", "50 tool_execution_completed", "50 tool_result_encoded"]);
      r.endInput();
      expect(r.done()).toBe(true);
    });
  });
});

describe("a handler returning a hostile promise", () => {
  const answerOf = async (returned: () => unknown) => {
    const tool = toolT(returned as () => HandlerReturn);
    const events: ToolEvent[] = [];
    await new Promise<void>((resolve) => streamToolCalls([call("c", "t")], [tool]).subscribe({ next: (e) => events.push(e), complete: resolve }));
    return events.filter((e) => e.type !== "tool_execution_started");
  };

  it("answers handler_raised when the promise's `constructor` getter throws", async () => {
    const events = await answerOf(() => {
      const p = Promise.resolve(ok(1));
      Object.defineProperty(p, "constructor", {
        get() {
          throw new Error("no constructor");
        },
      });
      return p;
    });
    expect(events.map((e) => e.type)).toEqual(["tool_execution_completed", "tool_result_encoded"]);
    expect(events[0]).toMatchObject({
      result: error(expect.objectContaining({ reason: "handler_raised", cause: expect.objectContaining({ message: "no constructor" }) })),
    });
  });

  it("answers handler_exit when the promise's own `then` throws", async () => {
    const events = await answerOf(() => {
      const p = Promise.resolve(ok(1));
      // biome-ignore lint/suspicious/noThenProperty: the test replaces a promise's then with one that throws
      Object.defineProperty(p, "then", {
        value: () => {
          throw new Error("no then");
        },
      });
      return p;
    });
    expect(events.map((e) => e.type)).toEqual(["tool_execution_completed", "tool_result_encoded"]);
    expect(events[0]).toMatchObject({
      result: error(expect.objectContaining({ reason: "handler_exit", cause: expect.objectContaining({ message: "no then" }) })),
    });
  });
});

describe("toolIdleTimeout and a resolver's recipe", () => {
  it("counts each recipe sub-step's report as progress", async () => {
    const scheduler = manualScheduler();
    // Each step answers 60 ms after it starts: 180 ms in all, never 100 ms without a report.
    const resolver: ToolResolver = {
      availableTools: () => [
        defineTool({ name: "research", description: "", schema: anyArgs }),
        defineTool({ name: "fetch", description: "", schema: anyArgs }),
      ],
      resolve: () => new Promise((resolve) => scheduler.schedule(() => resolve({ ok: "page" }), 60)),
      dispatchRecipe: (name) => (name === "research" ? () => ({ serial: ["1", "2", "3"].map((url) => ({ tool: "fetch", arguments: { url } })) }) : undefined),
    };
    const completed: [number, string][] = [];
    streamToolCalls([call("c", "research")], resolver, { scheduler, toolTimeout: 1_000, toolIdleTimeout: 100 }).subscribe((e) => {
      if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.result.type]);
    });
    await scheduler.advance(1_000);
    expect(completed).toEqual([[180, "ok"]]);
  });
});
