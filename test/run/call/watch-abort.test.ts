import { lastValueFrom } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, runToolCalls, streamToolCalls, type HandlerContext, type HandlerResult, type ToolExecutor } from "../../../src/index.js";
import { watchAbort, type CtxAbort } from "../../../src/internal.js";
import { anyArgs, call, flushMicrotasks } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

const tool = defineTool({ name: "t", description: "", schema: anyArgs });

/** An executor whose calls never settle by themselves and that watches each ctx's abort. */
function watching(heard: unknown[], watches: CtxAbort[], then?: (ctx: HandlerContext) => void): ToolExecutor {
  return {
    execute: (_tool, _args, ctx) =>
      new Promise<HandlerResult>(() => {
        watches.push(watchAbort(ctx, (reason) => heard.push(reason)));
        then?.(ctx);
      }),
  };
}

describe("watchAbort (the seam executors hear a runner's abort through)", () => {
  it("hears a deadline once, with the reason ctx.signal carries", async () => {
    const scheduler = manualScheduler();
    const heard: unknown[] = [];
    const watches: CtxAbort[] = [];
    let ctxOf: HandlerContext | undefined;
    const done = lastValueFrom(
      streamToolCalls([call("a", "t")], [tool], { scheduler, toolTimeout: 100, settleGrace: 0, toolExecutor: watching(heard, watches, (c) => (ctxOf = c)) }),
    );
    await flushMicrotasks();
    expect(watches).toHaveLength(1);
    expect(watches[0]?.aborted).toBe(false);
    scheduler.advance(100);
    await done;
    expect(heard).toHaveLength(1);
    expect((heard[0] as Error).message).toContain("timed out");
    expect(ctxOf?.signal.reason).toBe(heard[0]);
  });

  it("says a ctx aborted already, and never calls the listener", () => {
    const heard: unknown[] = [];
    const controller = new AbortController();
    controller.abort("gone");
    const ctx = { signal: controller.signal } as HandlerContext;
    const watch = watchAbort(ctx, (reason) => heard.push(reason));
    expect(watch).toMatchObject({ aborted: true, reason: "gone" });
    expect(heard).toEqual([]);
  });

  it("hears nothing once stopped, through the runner's ctx and through any other", async () => {
    const heard: unknown[] = [];
    const watches: CtxAbort[] = [];
    const run = runToolCalls([call("a", "t")], [tool], { toolExecutor: watching(heard, watches), toolTimeout: 20, settleGrace: 0 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    watches[0]?.stop();
    await run;
    expect(heard).toEqual([]);
    const controller = new AbortController();
    const other = watchAbort({ signal: controller.signal } as HandlerContext, (reason) => heard.push(reason));
    other.stop();
    controller.abort("late");
    expect(heard).toEqual([]);
  });

  it("hears a plain ctx's signal, with its reason", () => {
    const heard: unknown[] = [];
    const controller = new AbortController();
    watchAbort({ signal: controller.signal } as HandlerContext, (reason) => heard.push(reason));
    controller.abort("why");
    expect(heard).toEqual(["why"]);
  });
});
