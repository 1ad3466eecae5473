import { describe, expect, it, vi } from "vitest";
import { defineTool, error, ok, runToolCalls, streamToolCalls, type HandlerResult, type ToolExecutor } from "../../../src/index.js";
import type { HandlerContext } from "../../../src/tool/handler-context.js";
import { z } from "zod";
import { manualScheduler } from "../../support/manual-scheduler.js";
import { anyArgs, call, deferred, eventsOf } from "../../support/helpers.js";
import { instant } from "./lifecycle-tools.js";

describe("the handler's context", () => {
  it("carries context, sessionId, requestId, the call and the engine", async () => {
    let seen: HandlerContext | undefined;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_a, ctx) => {
        seen = ctx;
        return ok(1);
      },
    });
    const engine = { context: { tenant: "e" } };
    const c = call("c0", "t", { a: 1 });
    await runToolCalls([c], [tool], { engine, context: { tenant: "o" }, sessionId: "s1", requestId: "r1" });
    expect(seen).toMatchObject({ context: { tenant: "o" }, sessionId: "s1", requestId: "r1", toolCall: c, engine });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    await runToolCalls([c], [tool], { engine });
    expect(seen?.context).toEqual({ tenant: "e" });
    await runToolCalls([c], [tool]);
    expect(seen).toMatchObject({ context: {}, sessionId: undefined, requestId: undefined, engine: undefined });
  });

  it("takes the executor and encoder from the engine unless the options give their own", async () => {
    const fromEngine: ToolExecutor = { execute: () => ok("engine") };
    const fromOptions: ToolExecutor = { execute: () => ok("options") };
    const engine = { toolExecutor: fromEngine, toolResultEncoder: { encode: (v: unknown) => `E:${String(v)}`, encodeError: String } };
    expect((await runToolCalls([call("c0", "instant")], [instant], { engine })).messages[0]?.content).toBe("E:engine");
    expect((await runToolCalls([call("c0", "instant")], [instant], { engine, toolExecutor: fromOptions })).messages[0]?.content).toBe("E:options");
  });
});

describe("a custom executor", () => {
  const run = async (execute: ToolExecutor["execute"]) => (await eventsOf([call("c0", "instant")], [instant], { toolExecutor: { execute } }))[1];

  it("that throws gives handler_exit with the thrown value as cause", async () => {
    const boom = new Error("worker died");
    expect(
      await run(() => {
        throw boom;
      }),
    ).toMatchObject({ result: { type: "error", reason: { reason: "handler_exit", cause: boom, toolCallId: "c0" } } });
    expect(
      await run(() => {
        throw "gone";
      }),
    ).toMatchObject({ result: { reason: { reason: "handler_exit", cause: { thrown: "gone" } } } });
  });

  it("that rejects gives handler_exit", async () => {
    expect(await run(() => Promise.reject(new Error("lost")))).toMatchObject({ result: { reason: { reason: "handler_exit" } } });
  });

  it("that returns an illegal shape gives invalid_return", async () => {
    expect(await run(() => 42 as never)).toMatchObject({ result: { reason: { reason: "invalid_return", cause: 42 } } });
    expect(await run(async () => ({ type: "nope" }) as never)).toMatchObject({ result: { reason: { reason: "invalid_return" } } });
  });
});

describe("the deadline and async validation", () => {
  it("starts the handler's clock when the handler starts, not while async refinements run", async () => {
    const scheduler = manualScheduler();
    const check = deferred<boolean>();
    const handler = vi.fn(() => new Promise<HandlerResult>(() => {}));
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ name: z.string().refine(() => check.promise, "taken") }),
      handler,
    });
    const completed: [number, unknown][] = [];
    streamToolCalls([call("c0", "t", { name: "x" })], [tool], { scheduler, toolTimeout: 1_000 }).subscribe((e) => {
      if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.result]);
    });
    await scheduler.advance(600);
    expect(handler).not.toHaveBeenCalled();
    check.resolve(true);
    await scheduler.advance(999);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(completed).toEqual([]);
    await scheduler.advance(1);
    expect(completed).toEqual([[1_600, error(expect.objectContaining({ reason: "timeout", metadata: expect.objectContaining({ settled: false }) }))]]);
    expect(scheduler.live).toBe(0);
  });

  it("bounds an async validation that never settles by toolTimeout (issue 9.11)", async () => {
    const scheduler = manualScheduler();
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ name: z.string().refine(() => new Promise<boolean>(() => {}), "taken") }),
      handler,
    });
    const messages: [number, string][] = [];
    streamToolCalls([call("c0", "t", { name: "x" })], [tool], { scheduler, toolTimeout: 50 }).subscribe((e) => {
      if (e.type === "tool_result_encoded") messages.push([scheduler.now(), e.content]);
    });
    await scheduler.advance(49);
    expect(messages).toEqual([]);
    await scheduler.advance(1);
    expect(messages).toEqual([[50, '{"error":"timeout: the arguments of tool t were still being validated after 50 ms"}']]);
    expect(handler).not.toHaveBeenCalled();
    expect(scheduler.live).toBe(0);
  });
});
