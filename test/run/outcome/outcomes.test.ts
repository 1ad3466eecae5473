import { describe, expect, it, vi } from "vitest";
import { askUser, defineTool, error, halt, ok, RESERVED_HALT_REASONS, runToolCalls, ToolError } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import { anyArgs, call, eventsOf } from "../../support/helpers.js";
import { toolReturning } from "./outcome-fixtures.js";

const base = { index: 0, toolCallId: "c1", toolName: "t" };

describe("what each outcome becomes", () => {
  it("ok: started, completed with the handler's result, tool_result_encoded with encode(value)", async () => {
    const result = ok({ tempC: 21 });
    const events = await eventsOf([call("c1", "t", { city: "Paris" })], [toolReturning(result)]);
    expect(events).toEqual([
      { type: "tool_execution_started", ...base, arguments: { city: "Paris" } },
      { type: "tool_execution_completed", ...base, result },
      { type: "tool_result_encoded", ...base, content: '{"tempC":21}', isError: false },
    ]);
    expect(events[1]).toMatchObject({ result });
    expect((events[1] as { result: unknown }).result).toBe(result);
  });

  it("ask_user: ask_user_requested, message <awaiting user response>, halt ask_user", async () => {
    const tool = toolReturning(askUser("Which Paris?", { choices: ["FR", "TX"] }));
    const events = await eventsOf([call("c1", "t")], [tool]);
    expect(events[2]).toEqual({ type: "ask_user_requested", ...base, question: "Which Paris?", opts: { choices: ["FR", "TX"] } });
    expect(await runToolCalls([call("c1", "t")], [tool])).toEqual({
      messages: [{ role: "tool", toolCallId: "c1", name: "t", content: "<awaiting user response>", isError: false }],
      halt: { haltedReason: "ask_user", pendingQuestion: "Which Paris?", pendingToolCallId: "c1", askUserOpts: { choices: ["FR", "TX"] } },
      halts: [{ haltedReason: "ask_user", pendingQuestion: "Which Paris?", pendingToolCallId: "c1", askUserOpts: { choices: ["FR", "TX"] } }],
    });
  });

  it("ask_user without opts means opts {}", async () => {
    const tool = toolReturning({ type: "ask_user", question: "Sure?" });
    const events = await eventsOf([call("c1", "t")], [tool]);
    expect(events[2]).toEqual({ type: "ask_user_requested", ...base, question: "Sure?", opts: {} });
  });

  it("halt: tool_halt with encode(result), halting with the handler's reason", async () => {
    const tool = toolReturning(halt("payment_declined", { code: 51 }));
    const events = await eventsOf([call("c1", "t")], [tool]);
    expect(events[2]).toEqual({
      type: "tool_halt",
      ...base,
      reason: "payment_declined",
      result: { code: 51 },
      content: '{"code":51}',
      isError: false,
    });
    expect(await runToolCalls([call("c1", "t")], [tool])).toEqual({
      messages: [{ role: "tool", toolCallId: "c1", name: "t", content: '{"code":51}', isError: false }],
      halt: { haltedReason: "payment_declined", haltToolCallId: "c1", haltResult: { code: 51 } },
      halts: [{ haltedReason: "payment_declined", haltToolCallId: "c1", haltResult: { code: 51 } }],
    });
  });

  describe.each(RESERVED_HALT_REASONS)("halt with the reserved reason %s", (reason) => {
    it("is routed as invalid_return with metadata.reservedHaltReason", async () => {
      const events = await eventsOf([call("c1", "t")], [toolReturning(halt(reason, 1))]);
      const completed = events[1] as { result: { type: string; reason: ToolError } };
      expect(completed.result.type).toBe("error");
      expect(completed.result.reason).toBeInstanceOf(ToolError);
      expect(completed.result.reason).toMatchObject({ reason: "invalid_return", metadata: { reservedHaltReason: reason } });
      expect(completed.result.reason.message).toMatch(/reserved/);
      expect(events[2]).toMatchObject({ type: "tool_result_encoded", isError: true });
      expect((events[2] as { content: string }).content).toMatch(/reserved/);
    });
  });

  it("a handler's own error passes unchanged to the policy and becomes encodeError(reason)", async () => {
    const own = error({ code: "E_CITY" });
    const policy = vi.fn((_c: unknown, _e: unknown) => "halt" as const);
    const events = await eventsOf([call("c1", "t")], [toolReturning(own)], { onToolError: policy });
    expect(policy).toHaveBeenCalledWith(call("c1", "t"), own.reason);
    expect((events[1] as { result: unknown }).result).toBe(own);
    expect(events[2]).toEqual({
      type: "tool_halt",
      ...base,
      reason: "tool_error",
      result: own.reason,
      content: '{"error":"{\\"code\\":\\"E_CITY\\"}"}',
      isError: true,
    });
  });
});

describe("onToolError", () => {
  const failing = toolReturning(error("no such city"));
  const run = (options: RunOptions) => runToolCalls([call("c1", "t")], [failing], options);

  it('"continue" (the default) answers encodeError(E) and goes on', async () => {
    const expected = { messages: [{ role: "tool", toolCallId: "c1", name: "t", content: '{"error":"no such city"}', isError: true }] };
    expect(await run({})).toEqual(expected);
    expect(await run({ onToolError: "continue" })).toEqual(expected);
  });

  it('"halt" halts with tool_error, result E, content encodeError(E)', async () => {
    const events = await eventsOf([call("c1", "t")], [failing], { onToolError: "halt" });
    expect(events[2]).toEqual({ type: "tool_halt", ...base, reason: "tool_error", result: "no such city", content: '{"error":"no such city"}', isError: true });
    expect((await run({ onToolError: "halt" })).halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c1" });
  });

  describe("a function", () => {
    it("gets (call, E); { continue: r } answers encode(r) as a success and completes with ok(r)", async () => {
      const policy = vi.fn((_call: unknown, _e: unknown) => ({ continue: { fallback: true } }));
      const events = await eventsOf([call("c1", "t")], [failing], { onToolError: policy });
      expect(policy).toHaveBeenCalledTimes(1);
      expect(policy).toHaveBeenCalledWith(call("c1", "t"), "no such city");
      expect(events[1]).toEqual({ type: "tool_execution_completed", ...base, result: ok({ fallback: true }) });
      expect(events[2]).toEqual({ type: "tool_result_encoded", ...base, content: '{"fallback":true}', isError: false });
    });

    it('"halt" halts as "halt" does', async () => {
      expect((await run({ onToolError: () => "halt" })).halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c1" });
    });

    it("that throws: invalid_return with onToolErrorThrew, halted, the exception in the halt metadata, not called again", async () => {
      const thrown = new Error("policy bug");
      const policy = vi.fn(() => {
        throw thrown;
      });
      const events = await eventsOf([call("c1", "t")], [failing], { onToolError: policy });
      expect(policy).toHaveBeenCalledTimes(1);
      const tail = events[2] as { type: string; reason: string; result: ToolError; content: string };
      expect(tail).toMatchObject({ type: "tool_halt", reason: "tool_error", isError: true });
      expect(tail.result).toBeInstanceOf(ToolError);
      expect(tail.result).toMatchObject({ reason: "invalid_return", cause: thrown, metadata: { onToolErrorThrew: true } });
      expect(JSON.parse(tail.content).error).toMatch(/invalid_return.*onToolError threw.*policy bug/);
      expect(
        (
          await runToolCalls([call("c1", "t")], [failing], {
            onToolError: () => {
              throw thrown;
            },
          })
        ).halt,
      ).toEqual({
        haltedReason: "tool_error",
        haltToolCallId: "c1",
        onToolErrorException: thrown,
      });
    });

    it.each([
      ["undefined", undefined],
      ["a string", "continue"],
      ["an object without continue", { keepGoing: 1 }],
    ])("that returns %s: invalid_return, halted, not called again", async (_, answer) => {
      const policy = vi.fn(() => answer as never);
      const events = await eventsOf([call("c1", "t")], [failing], { onToolError: policy });
      expect(policy).toHaveBeenCalledTimes(1);
      expect(events[2]).toMatchObject({ type: "tool_halt", reason: "tool_error", result: { reason: "invalid_return" } });
      expect((await run({ onToolError: () => answer as never })).halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c1" });
    });

    it("that returns a promise: invalid_return (the policy is synchronous), and its rejection is not left unhandled", async () => {
      const unhandled = vi.fn();
      process.on("unhandledRejection", unhandled);
      try {
        const events = await eventsOf([call("c1", "t")], [failing], { onToolError: (() => Promise.reject(new Error("late"))) as never });
        expect(events[2]).toMatchObject({ type: "tool_halt", reason: "tool_error", result: { reason: "invalid_return" } });
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(unhandled).not.toHaveBeenCalled();
      } finally {
        process.off("unhandledRejection", unhandled);
      }
    });

    it("whose { continue: r } cannot be encoded: encoding_failed, halted, not called again", async () => {
      const policy = vi.fn(() => ({ continue: 10n }));
      const events = await eventsOf([call("c1", "t")], [failing], { onToolError: policy });
      expect(policy).toHaveBeenCalledTimes(1);
      expect(events[2]).toMatchObject({ type: "tool_halt", reason: "tool_error", result: { reason: "encoding_failed" }, isError: true });
    });

    it("is called for runner errors too, with the ToolError", async () => {
      const policy = vi.fn((_c: unknown, _e: unknown) => ({ continue: "recovered" }));
      const throwing = defineTool({
        name: "t",
        description: "",
        schema: anyArgs,
        handler: () => {
          throw new Error("boom");
        },
      });
      const { messages } = await runToolCalls([call("c1", "t")], [throwing], { onToolError: policy });
      expect(policy.mock.calls[0]?.[1]).toMatchObject({ reason: "handler_raised" });
      expect(messages[0]).toMatchObject({ content: "recovered", isError: false });
    });
  });
});
