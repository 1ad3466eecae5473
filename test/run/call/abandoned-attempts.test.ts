import { describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls, streamToolCalls, type HandlerResult, type ToolResolver } from "../../../src/index.js";
import { anyArgs, call, deferred } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";
import { run, toolT } from "./retry-fixtures.js";

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
