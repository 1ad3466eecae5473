/**
 * What a call's result becomes when the result itself misbehaves: a getter that throws or answers
 * differently once the shape was checked, an encoder that returns a non-string. Pinned where the
 * mutation run showed a change would pass unseen. Every such call is answered once, as
 * `invalid_return` or `encoding_failed`, and its sibling still gets its message.
 */
import { describe, expect, it } from "vitest";
import { defineTool, jsonEncoder, runToolCalls, ToolError, type HandlerResult, type ToolEvent } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import { anyArgs, call, eventsOf } from "../../support/helpers.js";

const NOT_A_RESULT =
  "invalid_return: tool t returned an object, which is not a result: return ok(value) (wrap a plain value in ok()), error(reason), askUser(question) or halt(reason, result)";

/** Tool `t` returning `result`, and tool `fine` answering "fine". */
function tools(result: () => unknown) {
  return [
    defineTool({ name: "t", description: "", schema: anyArgs, handler: () => result() as HandlerResult }),
    defineTool({ name: "fine", description: "", schema: anyArgs, handler: () => ({ type: "ok", value: "fine" }) }),
  ];
}

/** An object whose `key` reads as `first` once, then as `later` every time after. */
function changing(fields: Record<string, unknown>, key: string, first: unknown, later: unknown): object {
  let reads = 0;
  return Object.defineProperty({ ...fields }, key, { enumerable: true, get: () => (reads++ === 0 ? first : later) });
}

/** An object whose `key` getter throws. */
function throwing(fields: Record<string, unknown>, key: string): object {
  return Object.defineProperty({ ...fields }, key, {
    enumerable: true,
    get() {
      throw new Error(`${key} getter`);
    },
  });
}

async function answers(result: () => unknown, options?: RunOptions) {
  return runToolCalls([call("c1", "t"), call("c2", "fine")], tools(result), options);
}

describe("a handler result read once more by the runner", () => {
  describe.each([
    ["ok whose value", () => throwing({ type: "ok" }, "value"), '{"type":"ok","value":"[unreadable]"}'],
    ["error whose reason", () => throwing({ type: "error" }, "reason"), '{"type":"error","reason":"[unreadable]"}'],
    ["halt whose result", () => throwing({ type: "halt", reason: "stop" }, "result"), '{"type":"halt","reason":"stop","result":"[unreadable]"}'],
  ])("%s getter throws", (_, result, rendered) => {
    it("is answered invalid_return, showing the model what it returned, and its sibling is answered", async () => {
      expect((await answers(result)).messages).toEqual([
        { role: "tool", toolCallId: "c1", name: "t", content: JSON.stringify({ error: `${NOT_A_RESULT}: ${rendered}` }), isError: true },
        { role: "tool", toolCallId: "c2", name: "fine", content: "fine", isError: false },
      ]);
    });
  });

  describe.each([
    ["ask_user whose question", () => changing({ type: "ask_user" }, "question", "Which city?", 42), '{"type":"ask_user","question":42}'],
    ["halt whose reason", () => changing({ type: "halt", result: 1 }, "reason", "stop", 7), '{"type":"halt","result":1,"reason":7}'],
    ["a result whose type", () => changing({ value: 1 }, "type", "ok", "okay"), '{"value":1,"type":"okay"}'],
  ])("%s is legal when checked, then not when read", (_, result, rendered) => {
    // A custom executor hands the value straight to the runner, so the runner's check is its first read.
    const toolExecutor = { execute: () => result() as HandlerResult };

    it("is answered invalid_return, with no ask or halt", async () => {
      const events = await eventsOf([call("c1", "t")], tools(result), { toolExecutor });
      expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
      const tail = events[2] as Extract<ToolEvent, { type: "tool_result_encoded" }>;
      expect(tail).toMatchObject({ content: JSON.stringify({ error: `${NOT_A_RESULT}: ${rendered}` }), isError: true });
      expect((events[1] as { result: { reason: unknown } }).result.reason).toMatchObject({ reason: "invalid_return" });
    });
  });

  it("a halt whose reason was read as a string halts with it", async () => {
    const result = () => changing({ type: "halt", result: 1 }, "reason", "stop", "stop");
    const { halt } = await answers(result, { toolExecutor: { execute: () => result() as HandlerResult } });
    expect(halt).toEqual({ haltedReason: "stop", haltToolCallId: "c1", haltResult: 1 });
  });
});

describe("an encoder", () => {
  it("whose encode returns a non-string: the model and the developer read what it returned", async () => {
    const toolResultEncoder = { encode: () => 42 as never, encodeError: jsonEncoder.encodeError };
    const events = await eventsOf(
      [call("c1", "t")],
      tools(() => ({ type: "ok", value: 1 })),
      { toolResultEncoder },
    );
    const text = "tool error (t): encoding_failed: the encoder returned 42 instead of a string";
    const reason = (events[1] as { result: { reason: ToolError } }).result.reason;
    expect(reason).toBeInstanceOf(ToolError);
    expect(reason).toMatchObject({ reason: "encoding_failed", message: text, toolName: "t", toolCallId: "c1", cause: 42 });
    expect(events[2]).toMatchObject({ type: "tool_result_encoded", content: JSON.stringify({ error: `${text}: 42` }), isError: true });
  });

  it("whose encodeError returns a non-string: the text falls back to jsonEncoder's", async () => {
    const toolResultEncoder = { encode: jsonEncoder.encode, encodeError: () => ({ oops: true }) as never };
    const { messages } = await answers(() => ({ type: "error", reason: "no such city" }), { toolResultEncoder });
    expect(messages[0]).toEqual({ role: "tool", toolCallId: "c1", name: "t", content: '{"error":"no such city"}', isError: true });
  });
});
