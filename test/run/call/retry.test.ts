import { afterEach, describe, expect, it, vi } from "vitest";
import {
  defineTool,
  error,
  ok,
  streamToolCalls,
  ToolError,
  type CallReport,
  type HandlerResult,
  type ToolControl,
  type ToolEvent,
} from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import type { RetryPolicy } from "../../../src/tool/retry-policy.js";
import { anyArgs, call } from "../../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

/** A tool whose attempts behave as `plan` says, one entry per attempt (the last repeats). */
function scripted(
  plan: readonly ("throw" | "hang" | "ok" | "invalid" | "own")[],
  control: ToolControl = { idempotent: true, retry: { attempts: 3, jitter: false } },
) {
  let attempts = 0;
  const tool = defineTool({
    name: "flaky",
    description: "",
    schema: anyArgs,
    control,
    handler: (): HandlerResult | Promise<HandlerResult> => {
      const step = plan[Math.min(attempts++, plan.length - 1)];
      switch (step) {
        case "throw":
          throw new Error(`attempt ${attempts} failed`);
        case "hang":
          return new Promise<HandlerResult>(() => {});
        case "invalid":
          return "not a result" as never;
        case "own":
          return error("the handler's own error");
        default:
          return ok(`attempt ${attempts} ok`);
      }
    },
  });
  return { tool, attempts: () => attempts };
}

function run(scheduler: ManualScheduler, tool: ReturnType<typeof scripted>["tool"], options: RunOptions = {}) {
  const log: string[] = [];
  const events: ToolEvent[] = [];
  const reports: CallReport[] = [];
  const subscription = streamToolCalls([call("c", "flaky")], [tool], {
    scheduler,
    ...options,
    onCallReport: (r) => {
      reports.push(r);
      log.push(`${scheduler.now()} ${r.type}`);
    },
  }).subscribe((e) => {
    events.push(e);
    log.push(`${scheduler.now()} ${e.type}`);
  });
  const completed = () => events.filter((e) => e.type === "tool_execution_completed");
  return { log, events, reports, completed, subscription };
}

describe("retries", () => {
  afterEach(() => vi.restoreAllMocks());

  it("retries handler_raised with exponential backoff on the scheduler, reports each failed attempt, and emits completed once", async () => {
    const scheduler = manualScheduler();
    const { tool, attempts } = scripted(["throw", "throw", "ok"]);
    const r = run(scheduler, tool);
    await scheduler.advance(1_000);
    expect(attempts()).toBe(3);
    expect(r.log).toEqual(["0 tool_execution_started", "0 attempt_failed", "200 attempt_failed", "600 tool_execution_completed", "600 tool_result_encoded"]);
    expect(r.reports).toEqual([
      expect.objectContaining({ type: "attempt_failed", attempt: 1, retryIn: 200, error: expect.objectContaining({ reason: "handler_raised" }) }),
      expect.objectContaining({ type: "attempt_failed", attempt: 2, retryIn: 400 }),
    ]);
    expect(r.completed()).toEqual([expect.objectContaining({ result: ok("attempt 3 ok") })]);
  });

  it("gives each attempt its own toolTimeout, and says in the final error how many attempts were made", async () => {
    const scheduler = manualScheduler();
    const { tool } = scripted(["hang"]);
    const r = run(scheduler, tool, { toolTimeout: 100 });
    await scheduler.advance(10_000);
    // attempt 1: 0–100, backoff 200, attempt 2: 300–400, backoff 400, attempt 3: 800–900
    expect(r.log.filter((l) => l.endsWith("attempt_failed") || l.endsWith("completed"))).toEqual([
      "100 attempt_failed",
      "400 attempt_failed",
      "900 tool_execution_completed",
    ]);
    expect(r.completed()[0]).toMatchObject({
      result: error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining({ attempts: 3, deadline: "toolTimeout" }) })),
    });
  });

  it("bounds the whole call by totalTimeout, backoffs included", async () => {
    const scheduler = manualScheduler();
    const { tool, attempts } = scripted(["hang"], { idempotent: true, retry: { attempts: 5, jitter: false, delay: 50, totalTimeout: 220 } });
    const r = run(scheduler, tool, { toolTimeout: 100 });
    await scheduler.advance(10_000);
    // attempt 1: 0–100, backoff 50, attempt 2 from 150, cut by the total bound at 220
    expect(attempts()).toBe(2);
    expect(r.completed()).toEqual([
      expect.objectContaining({
        result: error(
          expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining({ deadline: "totalTimeout", totalTimeout: 220, attempts: 2 }) }),
        ),
      }),
    ]);
  });

  it("does not start a retry whose backoff would end past the total bound", async () => {
    const scheduler = manualScheduler();
    const { tool, attempts } = scripted(["throw"], { idempotent: true, retry: { attempts: 5, jitter: false, delay: 500, totalTimeout: 300 } });
    const r = run(scheduler, tool);
    await scheduler.advance(10_000);
    expect(attempts()).toBe(1);
    expect(r.completed()[0]).toMatchObject({ result: error(expect.objectContaining({ reason: "handler_raised", metadata: { attempts: 1 } })) });
  });

  it("never retries invalid_return or a handler's own error by default", async () => {
    for (const plan of [
      ["invalid", "ok"],
      ["own", "ok"],
    ] as const) {
      const scheduler = manualScheduler();
      const { tool, attempts } = scripted(plan);
      const r = run(scheduler, tool);
      await scheduler.advance(10_000);
      expect(attempts()).toBe(1);
      expect(r.reports).toEqual([]);
    }
  });

  it("never retries invalid_return, even when a predicate asks to", async () => {
    const scheduler = manualScheduler();
    const { tool, attempts } = scripted(["invalid", "ok"], { idempotent: true, retry: { attempts: 3, retryOn: () => true } });
    run(scheduler, tool);
    await scheduler.advance(10_000);
    expect(attempts()).toBe(1);
  });

  it("retries what a predicate allows, such as a handler's own error", async () => {
    const scheduler = manualScheduler();
    const seen: unknown[] = [];
    const { tool } = scripted(["own", "ok"], {
      idempotent: true,
      retry: {
        attempts: 2,
        jitter: false,
        retryOn: (e, n) => {
          seen.push([e, n]);
          return true;
        },
      },
    });
    const r = run(scheduler, tool);
    await scheduler.advance(10_000);
    expect(seen).toEqual([["the handler's own error", 1]]);
    expect(r.completed()[0]).toMatchObject({ result: ok("attempt 2 ok") });
  });

  it("spreads backoffs with full jitter, uniform below the exponential ceiling", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    const scheduler = manualScheduler();
    const { tool } = scripted(["throw", "ok"], { idempotent: true, retry: { attempts: 2, delay: 1_000 } });
    const r = run(scheduler, tool);
    await scheduler.advance(10_000);
    expect(r.reports).toEqual([expect.objectContaining({ retryIn: 250 })]);
    expect(r.log.at(-1)).toBe("250 tool_result_encoded");
  });

  it("stops waiting in a backoff when the stream is unsubscribed, leaving no timer", async () => {
    const scheduler = manualScheduler();
    const { tool, attempts } = scripted(["throw"]);
    const r = run(scheduler, tool);
    await scheduler.advance(100);
    expect(scheduler.live).toBe(1);
    r.subscription.unsubscribe();
    expect(scheduler.live).toBe(0);
    await scheduler.advance(10_000);
    expect(attempts()).toBe(1);
  });

  describe("idempotency", () => {
    it("refuses a tool retry on a tool not declared idempotent, unless nonIdempotent: true", () => {
      const define = (control: ToolControl) => () => defineTool({ name: "pay", description: "", schema: anyArgs, control });
      expect(define({ retry: { attempts: 3 } })).toThrow(/Tool "pay" declares `control.retry` but not `control.idempotent: true`/);
      expect(define({ retry: { attempts: 3, nonIdempotent: true } })).not.toThrow();
      expect(define({ idempotent: true, retry: { attempts: 3 } })).not.toThrow();
    });

    it("applies RunOptions.retry to idempotent tools only, unless it says nonIdempotent: true", async () => {
      for (const [control, retry, expected] of [
        [{ idempotent: true }, { attempts: 2, jitter: false }, 2],
        [{}, { attempts: 2, jitter: false }, 1],
        [{}, { attempts: 2, jitter: false, nonIdempotent: true }, 2],
        [{ idempotent: true, retry: false }, { attempts: 2, jitter: false }, 1],
      ] as [ToolControl | undefined, RetryPolicy, number][]) {
        const scheduler = manualScheduler();
        const { tool, attempts } = scripted(["throw", "ok"], control as ToolControl);
        run(scheduler, tool, { retry });
        await scheduler.advance(10_000);
        expect(attempts()).toBe(expected);
      }
    });
  });

  it("checks the policy, naming the field", () => {
    expect(() => streamToolCalls([], [], { retry: { attempts: 0 } })).toThrow(/Expected `retry.attempts` to be a positive integer, got 0/);
    expect(() => streamToolCalls([], [], { retry: { attempts: 2, retryOn: ["invalid_return" as never] } })).toThrow(
      /`retry.retryOn` to be a predicate or an array of "timeout", "handler_raised", "handler_exit"/,
    );
    expect(() => defineTool({ name: "t", description: "", schema: anyArgs, control: { idempotent: true, retry: { attempts: 2, delay: -1 } } })).toThrow(
      /`control.retry.delay` of tool "t" to be a finite number of at least 0, got -1/,
    );
  });

  it("keeps ToolError fields when it adds the attempt count", async () => {
    const scheduler = manualScheduler();
    const { tool } = scripted(["throw"], { idempotent: true, retry: { attempts: 2, jitter: false, delay: 1 } });
    const r = run(scheduler, tool);
    await scheduler.advance(100);
    const result = r.completed()[0]?.result;
    expect(result?.type === "error" && result.reason).toBeInstanceOf(ToolError);
    expect(result).toMatchObject({
      reason: { reason: "handler_raised", toolName: "flaky", toolCallId: "c", cause: new Error("attempt 2 failed"), metadata: { attempts: 2 } },
    });
  });
});
