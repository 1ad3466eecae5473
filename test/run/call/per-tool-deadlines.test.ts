/**
 * A tool declares its own deadlines (`control.timeout`, `control.idleTimeout`), over the run's
 * `toolTimeout` and `toolIdleTimeout`: only its author knows that a report takes minutes and a
 * lookup a second.
 */
import { describe, expect, it } from "vitest";
import { defineTool, error, streamToolCalls, type HandlerContext, type HandlerResult, type ToolControl, type ToolEvent } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import { anyArgs, call } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

const hang = () => new Promise<HandlerResult>(() => {});
const tool = (name: string, control?: ToolControl, handler: (a: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerResult> = hang) =>
  defineTool({ name, description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });

/** When each call was answered, and with what, on a manual clock. */
async function answers(tools: ReturnType<typeof tool>[], options: RunOptions, until: number) {
  const scheduler = manualScheduler();
  const answered: Record<string, [number, HandlerResult]> = {};
  const subscription = streamToolCalls(
    tools.map((t) => call(t.name, t.name)),
    tools,
    { scheduler, ...options },
  ).subscribe((e: ToolEvent) => {
    if (e.type === "tool_execution_completed") answered[e.toolCallId] = [scheduler.now(), e.result];
  });
  await scheduler.advance(until);
  subscription.unsubscribe();
  return answered;
}

const timeoutAfter = (deadline: string, facts: Record<string, unknown>) =>
  error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining({ deadline, ...facts }) }));

describe("control.timeout", () => {
  it("overrides the run's toolTimeout for that tool alone, shorter or longer", async () => {
    const answered = await answers([tool("quick", { timeout: 100 }), tool("report", { timeout: 5_000 }), tool("plain")], { toolTimeout: 1_000 }, 10_000);
    expect(answered).toEqual({
      quick: [100, timeoutAfter("toolTimeout", { toolTimeout: 100 })],
      plain: [1_000, timeoutAfter("toolTimeout", { toolTimeout: 1_000 })],
      report: [5_000, timeoutAfter("toolTimeout", { toolTimeout: 5_000 })],
    });
  });

  it("Infinity lifts the run's deadline for that tool", async () => {
    const answered = await answers([tool("long", { timeout: Infinity }), tool("plain")], { toolTimeout: 1_000 }, 100_000);
    expect(Object.keys(answered)).toEqual(["plain"]);
  });

  it("is per attempt, and sizes the default totalTimeout of the tool's retries", async () => {
    const flaky = tool("flaky", { timeout: 100, idempotent: true, retry: { attempts: 3, delay: 10, jitter: false } });
    const answered = await answers([flaky], { toolTimeout: 60_000 }, 10_000);
    // Three attempts of 100 ms and two backoffs of 10 and 20 ms: the last attempt's own deadline ends it.
    expect(answered.flaky?.[0]).toBe(330);
    expect(answered.flaky?.[1]).toEqual(timeoutAfter("toolTimeout", { toolTimeout: 100 }));
  });
});

describe("control.idleTimeout", () => {
  it("overrides the run's toolIdleTimeout, and each progress report restarts it", async () => {
    const reporting = tool("reporting", { idleTimeout: 50 }, (_a, ctx) => {
      let n = 0;
      const tick = () => {
        if (n++ < 3) {
          ctx.progress({ progress: n });
          void wait(40).then(tick);
        }
      };
      tick();
      return hang();
    });
    let wait: (ms: number) => Promise<void> = () => Promise.resolve();
    const scheduler = manualScheduler();
    wait = (ms) => new Promise((resolve) => scheduler.schedule(() => resolve(), ms));
    const answered: [number, HandlerResult][] = [];
    streamToolCalls([call("r", "reporting"), call("p", "plain")], [reporting, tool("plain")], { scheduler, toolIdleTimeout: 10_000 }).subscribe((e) => {
      if (e.type === "tool_execution_completed") answered.push([scheduler.now(), e.result]);
    });
    await scheduler.advance(1_000);
    // Reports at 0, 40 and 80, then silence: idle at 130, past the 50 ms that one gap of 40 never reached. The other tool keeps the run's 10 s.
    expect(answered).toEqual([[130, timeoutAfter("toolIdleTimeout", { toolIdleTimeout: 50 })]]);
  });
});

describe("when control.timeout or control.idleTimeout is not a deadline", () => {
  it.each([0, -1, "1000", Number.NaN, 2 ** 31])("refuses %s as a run option is refused", (value) => {
    for (const key of ["timeout", "idleTimeout"]) {
      expect(() => tool("t", { [key]: value } as ToolControl)).toThrow(
        new RegExp(`^Expected \`control\\.${key}\` of tool "t" to be Infinity or a positive number of milliseconds up to 2147483647, got `),
      );
    }
  });
});
