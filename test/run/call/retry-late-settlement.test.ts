import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  ok,
  runToolCalls,
  streamToolCalls,
  type CallReport,
  type HandlerResult,
  type HandlerReturn,
  type ToolControl,
  type ToolResolver,
  type ToolEvent,
} from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { anyArgs, call, deferred } from "../../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

function toolT(handler: (args: Record<string, unknown>, ctx: HandlerContext) => HandlerReturn, control?: ToolControl) {
  return defineTool({ name: "t", description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });
}

/** Run one call "c" of tool "t" on a manual clock; `tails` are its tail events, `reports` its side channel. */
function run(scheduler: ManualScheduler, tool: ReturnType<typeof toolT>, options: RunOptions = {}) {
  const tails: ToolEvent[] = [];
  const completed: ToolEvent[] = [];
  const reports: CallReport[] = [];
  let done = false;
  streamToolCalls([call("c", "t")], [tool], { scheduler, onCallReport: (r) => reports.push(r), ...options }).subscribe({
    next: (e) => {
      if (e.type === "tool_execution_completed") completed.push(e);
      else if (e.type !== "tool_execution_started") tails.push(e);
    },
    complete: () => (done = true),
  });
  return { tails, completed, reports, done: () => done };
}

describe("retries of one call", () => {
  it("gives every attempt the same validated arguments", async () => {
    const scheduler = manualScheduler();
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ city: z.string(), units: z.string().default("C") }),
      control: { idempotent: true, retry: { attempts: 2, delay: 10, jitter: false } },
      handler: (args) => {
        seen.push(args);
        if (seen.length === 1) throw new Error("flaky");
        return ok("sunny");
      },
    });
    streamToolCalls([call("c", "t", { city: "Oslo" })], [tool], { scheduler }).subscribe();
    await scheduler.advance(10);
    expect(seen).toEqual([
      { city: "Oslo", units: "C" },
      { city: "Oslo", units: "C" },
    ]);
  });

  it("never asks the retryOn predicate about a success, nor retries it", async () => {
    const scheduler = manualScheduler();
    let asked = 0;
    let attempts = 0;
    const tool = toolT(
      () => {
        attempts++;
        return ok("fine");
      },
      {
        idempotent: true,
        retry: {
          attempts: 3,
          retryOn: () => {
            asked++;
            return true;
          },
        },
      },
    );
    const r = run(scheduler, tool);
    await scheduler.advance(10_000);
    expect([attempts, asked]).toEqual([1, 0]);
    expect(r.completed).toEqual([expect.objectContaining({ result: ok("fine") })]);
  });

  it("does not start a retry whose backoff would end exactly at the total bound", async () => {
    const scheduler = manualScheduler();
    let attempts = 0;
    const tool = toolT(
      () => {
        attempts++;
        throw new Error("flaky");
      },
      { idempotent: true, retry: { attempts: 2, delay: 300, jitter: false, totalTimeout: 300 } },
    );
    const r = run(scheduler, tool);
    await scheduler.advance(1_000);
    expect(attempts).toBe(1);
    expect(r.done()).toBe(true);
  });

  it("does not ask the retryOn predicate about a failure once the total bound has passed", async () => {
    const scheduler = manualScheduler();
    const asked: unknown[] = [];
    const tool = toolT(() => new Promise<HandlerResult>(() => {}), {
      idempotent: true,
      retry: {
        attempts: 3,
        delay: 10,
        jitter: false,
        totalTimeout: 150,
        retryOn: (e) => {
          asked.push((e as { metadata: { deadline: string } }).metadata.deadline);
          return true;
        },
      },
    });
    const r = run(scheduler, tool, { toolTimeout: 100 });
    await scheduler.advance(1_000);
    expect(asked).toEqual(["toolTimeout"]);
    expect(r.completed).toEqual([
      expect.objectContaining({
        result: expect.objectContaining({ reason: expect.objectContaining({ metadata: expect.objectContaining({ deadline: "totalTimeout" }) }) }),
      }),
    ]);
  });

  it("leaves no backoff timer when the call is cancelled by id from its attempt_failed report", async () => {
    const scheduler = manualScheduler();
    const cancel = new Subject<string>();
    const flaky = toolT(
      () => {
        throw new Error("flaky");
      },
      { idempotent: true, retry: { attempts: 3, delay: 100, jitter: false } },
    );
    // Another call, without any deadline, keeps the stream open.
    const wait = defineTool({ name: "wait", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
    const tails: string[] = [];
    streamToolCalls([call("c", "t"), call("w", "wait")], [flaky, wait], {
      scheduler,
      cancel,
      toolTimeout: Infinity,
      onCallReport: (report) => report.type === "attempt_failed" && cancel.next("c"),
    }).subscribe((e) => e.type === "tool_result_encoded" && tails.push(e.toolCallId));
    expect(tails).toEqual(["c"]);
    expect(scheduler.live).toBe(0);
  });
});

describe("a call cancelled by id while its handler runs", () => {
  it("leaves no timer once the stream completes", async () => {
    const scheduler = manualScheduler();
    const cancel = new Subject<string>();
    const r = run(
      scheduler,
      toolT(() => new Promise<HandlerResult>(() => {})),
      { cancel, onCallReport: undefined, toolTimeout: 1_000 },
    );
    await scheduler.advance(10);
    cancel.next("c");
    expect(r.done()).toBe(true);
    expect(scheduler.live).toBe(0);
  });
});

describe("late settlement of abandoned attempts", () => {
  it("reports each abandoned attempt under its own number, whichever settles first", async () => {
    const scheduler = manualScheduler();
    const attempts: ReturnType<typeof deferred<HandlerResult>>[] = [];
    const tool = toolT(
      () => {
        const d = deferred<HandlerResult>();
        attempts.push(d);
        return d.promise;
      },
      { idempotent: true, retry: { attempts: 2, delay: 10, jitter: false } },
    );
    const r = run(scheduler, tool, { toolTimeout: 100 });
    await scheduler.advance(210);
    expect(attempts).toHaveLength(2);
    attempts[1]?.resolve(ok("second"));
    await scheduler.advance(10);
    attempts[0]?.resolve(ok("first"));
    await scheduler.advance(10);
    const late = r.reports.filter((x) => x.type === "late_settlement");
    expect(late.map((x) => [x.attempt, "result" in x ? x.result : undefined])).toEqual([
      [2, ok("second")],
      [1, ok("first")],
    ]);
  });

  it("reports an attempt still running after settleGrace once, even if it settles later", async () => {
    const scheduler = manualScheduler();
    const d = deferred<HandlerResult>();
    const r = run(
      scheduler,
      toolT(() => d.promise),
      { toolTimeout: 100, settleGrace: 50 },
    );
    await scheduler.advance(200);
    d.resolve(ok("finally"));
    await scheduler.advance(10);
    expect(r.reports.map((x) => [x.type, "settled" in x && x.settled])).toEqual([["late_settlement", false]]);
  });

  it("reports once an abandoned attempt whose custom executor's thenable calls back twice", async () => {
    const scheduler = manualScheduler();
    const callbacks: ((value: unknown) => void)[] = [];
    const tool = toolT(() => ok("unused"));
    const r = run(scheduler, tool, {
      toolTimeout: 100,
      // biome-ignore lint/suspicious/noThenProperty: an executor answering a bare thenable is the case under test
      toolExecutor: { execute: () => ({ then: (onValue: (value: unknown) => void) => void callbacks.push(onValue) }) as never },
    });
    await scheduler.advance(100);
    callbacks[0]?.(ok("late"));
    callbacks[0]?.(ok("later"));
    await scheduler.advance(10);
    expect(r.reports.map((x) => [x.type, "result" in x ? x.result : undefined])).toEqual([["late_settlement", ok("late")]]);
  });
});

describe("a tool without a handler", () => {
  it("is answered not_found by the runner", async () => {
    const tool = defineTool({ name: "manual", description: "", schema: anyArgs });
    const errors: unknown[] = [];
    await runToolCalls([call("c", "manual")], [tool], {
      onToolError: (_c, e) => {
        errors.push(e);
        return { continue: "none" };
      },
    });
    expect(errors).toEqual([expect.objectContaining({ reason: "not_found" })]);
  });
});

describe("a retried resolver call whose recipe step of an abandoned attempt finishes later", () => {
  it("drops that step's report while the next attempt runs", async () => {
    const scheduler = manualScheduler();
    const gate = deferred<{ ok: string }>();
    let resolved = 0;
    const resolver: ToolResolver = {
      availableTools: () => [
        defineTool({ name: "research", description: "", schema: anyArgs }),
        defineTool({ name: "fetch", description: "", schema: anyArgs }),
      ],
      // The first attempt's step answers when the test says; the second attempt's never does.
      resolve: () => (++resolved === 1 ? gate.promise : new Promise(() => {})),
      dispatchRecipe: (name) => (name === "research" ? () => ({ serial: [{ tool: "fetch", arguments: {} }] }) : undefined),
    };
    const reports: string[] = [];
    streamToolCalls([call("c", "research")], resolver, {
      scheduler,
      toolTimeout: 50,
      retry: { attempts: 2, delay: 10, jitter: false, nonIdempotent: true },
      onCallReport: (r) => reports.push(r.type),
    }).subscribe();
    await scheduler.advance(70);
    expect(reports).toEqual(["recipe_step_started", "attempt_failed", "recipe_step_started"]);
    gate.resolve({ ok: "page" });
    await scheduler.advance(10);
    expect(reports.filter((type) => type.startsWith("recipe_step"))).toEqual(["recipe_step_started", "recipe_step_started"]);
  });
});
