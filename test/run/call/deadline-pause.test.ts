import { TestScheduler } from "rxjs/testing";
import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, type HandlerResult, type ToolEvent, type ToolExecutor } from "../../../src/index.js";
import { pauseDeadline } from "../../../src/internal.js";
import { call } from "../../support/helpers.js";

// An executor that hands its call somewhere it waits before the handler starts (toolrx/node's
// pool posting a busy thread its next call) stops the attempt's deadline meanwhile.

const tool = defineTool({ name: "waits", description: "", schema: { type: "object" }, handler: () => ok(1) });

/** A thenable the test settles at a virtual time (a promise would settle after the scheduler's flush). */
function later(): { thenable: Promise<HandlerResult>; settle(result: HandlerResult): void } {
  let settle: (result: HandlerResult) => void = () => {};
  const thenable = {
    // biome-ignore lint/suspicious/noThenProperty: a thenable settled on the virtual clock is what the test needs
    then(onValue: (result: HandlerResult) => void) {
      settle = onValue;
    },
  } as unknown as Promise<HandlerResult>;
  return { thenable, settle: (result) => settle(result) };
}

/** The virtual time each call's result was encoded at, and its content. */
function run(executor: (scheduler: TestScheduler) => ToolExecutor, toolTimeout: number): [number, string][] {
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  const seen: [number, string][] = [];
  scheduler.run(() => {
    streamToolCalls([call("c0", "waits")], [tool], { toolTimeout, scheduler, toolExecutor: executor(scheduler) }).subscribe((e: ToolEvent) => {
      if (e.type === "tool_result_encoded") seen.push([scheduler.now(), e.content]);
    });
  });
  return seen;
}

describe("pauseDeadline", () => {
  it("stops the attempt's clock until resumed: the time before the pause counts, the pause does not", () => {
    const seen = run(
      (scheduler) => ({
        execute: (_tool, _args, ctx) => {
          let resume: (() => void) | undefined;
          scheduler.schedule(() => (resume = pauseDeadline(ctx)), 20);
          scheduler.schedule(() => resume?.(), 50);
          return later().thenable;
        },
      }),
      100,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toBe(130); // 20 ms before the pause + 80 ms after it
    expect(seen[0]?.[1]).toContain("timed out after 100 ms");
  });

  it("lets a paused attempt's result through, however long the pause", () => {
    const seen = run(
      (scheduler) => ({
        execute: (_tool, _args, ctx) => {
          const result = later();
          pauseDeadline(ctx);
          scheduler.schedule(() => result.settle(ok(7)), 500);
          return result.thenable;
        },
      }),
      100,
    );
    expect(seen).toEqual([[500, "7"]]);
  });
});
