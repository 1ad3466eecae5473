import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, ok, streamToolCalls, type ToolError, type HandlerResult, type ToolCall, type ToolEvent } from "../../src/index.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../support/helpers.js";

const echo = defineTool({ name: "echo", description: "", schema: anyArgs, handler: (args) => ok(args) });

function record(input: Subject<ToolCall>, options = {}) {
  const events: ToolEvent[] = [];
  const state = { completed: false, error: undefined as unknown };
  const subscription = streamToolCalls(input, [echo, slowTool.tool], options).subscribe({
    next: (e) => events.push(e),
    error: (e) => (state.error = e),
    complete: () => (state.completed = true),
  });
  return { events, state, subscription };
}

const slowTool = (() => {
  const pending: { signal: AbortSignal; settle: (r: HandlerResult) => void }[] = [];
  const tool = defineTool({
    name: "slow",
    description: "",
    schema: anyArgs,
    handler: (_a, ctx) => {
      const d = deferred<HandlerResult>();
      pending.push({ signal: ctx.signal, settle: d.resolve });
      return d.promise;
    },
  });
  return { tool, pending };
})();

describe("streamToolCalls with an Observable of calls", () => {
  it("starts each call as it arrives, numbering them in arrival order", () => {
    const input = new Subject<ToolCall>();
    const { events } = record(input);
    expect(events).toEqual([]);
    input.next(call("b", "echo", { n: 1 }));
    expect(events.map((e) => `${e.index}:${e.toolCallId}:${e.type}`)).toEqual([
      "0:b:tool_execution_started",
      "0:b:tool_execution_completed",
      "0:b:tool_result_encoded",
    ]);
    input.next(call("a", "echo"));
    expect(events.at(-1)).toMatchObject({ index: 1, toolCallId: "a", type: "tool_result_encoded" });
  });

  it("completes when the input has completed and every call has finished", async () => {
    slowTool.pending.length = 0;
    const input = new Subject<ToolCall>();
    const { state } = record(input);
    input.next(call("s", "slow"));
    input.complete();
    expect(state.completed).toBe(false);
    slowTool.pending[0]?.settle(ok(1));
    await flushMicrotasks();
    expect(state.completed).toBe(true);
  });

  it("fails a call with an unknown name alone, as not_found routed by the policy", () => {
    const input = new Subject<ToolCall>();
    const { events, state } = record(input);
    input.next(call("x", "wether"));
    input.next(call("y", "echo"));
    input.complete();
    expect(state).toEqual({ completed: true, error: undefined });
    const completed = events.find((e) => e.type === "tool_execution_completed" && e.toolCallId === "x") as { result: { reason: ToolError } };
    expect(completed.result.reason).toMatchObject({ reason: "not_found", toolName: "wether", toolCallId: "x" });
    expect(events.find((e) => e.type === "tool_result_encoded" && e.toolCallId === "x")).toMatchObject({ isError: true });
    expect(events.find((e) => e.type === "tool_result_encoded" && e.toolCallId === "y")).toMatchObject({ isError: false });
  });

  it("queues arrivals beyond maxConcurrency and starts them as slots free up", async () => {
    slowTool.pending.length = 0;
    const input = new Subject<ToolCall>();
    const { events } = record(input, { maxConcurrency: 1 });
    input.next(call("s0", "slow"));
    input.next(call("s1", "slow"));
    expect(slowTool.pending).toHaveLength(1);
    expect(events.filter((e) => e.type === "tool_execution_started")).toHaveLength(1);
    slowTool.pending[0]?.settle(ok(0));
    await flushMicrotasks();
    expect(slowTool.pending).toHaveLength(2);
  });

  it("passes an input error on after aborting the running calls", () => {
    slowTool.pending.length = 0;
    const input = new Subject<ToolCall>();
    const { state } = record(input);
    input.next(call("s0", "slow"));
    const failure = new Error("model stream broke");
    input.error(failure);
    expect(state.error).toBe(failure);
    expect(slowTool.pending[0]?.signal.aborted).toBe(true);
    expect(slowTool.pending[0]?.signal.reason).toBe(failure);
  });

  it("errors with a TypeError naming the index for a malformed call, after aborting the running ones", () => {
    slowTool.pending.length = 0;
    const input = new Subject<ToolCall>();
    const { state } = record(input);
    input.next(call("s0", "slow"));
    input.next({ id: "", name: "echo", arguments: {} });
    expect(state.error).toBeInstanceOf(TypeError);
    expect((state.error as Error).message).toMatch(/tool call at index 1/);
    expect(slowTool.pending[0]?.signal.aborted).toBe(true);
  });

  it("unsubscribing lets go of the input and aborts running calls", () => {
    slowTool.pending.length = 0;
    const input = new Subject<ToolCall>();
    const { subscription } = record(input);
    input.next(call("s0", "slow"));
    subscription.unsubscribe();
    expect(input.observed).toBe(false);
    expect(slowTool.pending[0]?.signal.aborted).toBe(true);
  });

  it("completes with no event for an empty input", () => {
    const input = new Subject<ToolCall>();
    const { events, state } = record(input);
    input.complete();
    expect(events).toEqual([]);
    expect(state.completed).toBe(true);
  });
});
