import { describe, expect, it, vi } from "vitest";
import { askUser, defineTool, error, halt, jsonEncoder, ok, runToolCalls, type ToolError, type ToolResultEncoder } from "../../../src/index.js";
import { anyArgs, call, eventsOf } from "../../support/helpers.js";
import { toolReturning } from "./outcome-fixtures.js";

describe("the encoder", () => {
  it("a value encode cannot handle becomes encoding_failed, routed by the policy", async () => {
    const events = await eventsOf([call("c1", "t")], [toolReturning(ok(10n))]);
    const completed = events[1] as { result: { type: string; reason: ToolError } };
    expect(completed.result.type).toBe("error");
    expect(completed.result.reason).toMatchObject({ reason: "encoding_failed", toolName: "t", toolCallId: "c1" });
    expect(completed.result.reason.cause).toBeInstanceOf(TypeError);
    expect(events[2]).toMatchObject({ type: "tool_result_encoded", isError: true });
  });

  it("a halt whose result cannot be encoded is encoding_failed, not a halt (under continue)", async () => {
    const result = await runToolCalls([call("c1", "t")], [toolReturning(halt("stop", undefined))]);
    expect(result.halt).toBeUndefined();
    expect(result.messages[0]?.isError).toBe(true);
  });

  it("an encoder returning a non-string is encoding_failed", async () => {
    const encoder: ToolResultEncoder = { encode: () => 42 as never, encodeError: jsonEncoder.encodeError };
    const events = await eventsOf([call("c1", "t")], [toolReturning(ok(1))], { toolResultEncoder: encoder });
    expect(events[1]).toMatchObject({ result: { type: "error", reason: { reason: "encoding_failed", cause: 42 } } });
  });

  it("a custom encoder is used for both successes and errors", async () => {
    const encoder: ToolResultEncoder = { encode: (v) => `<${String(v)}>`, encodeError: (r) => `!${String(r)}` };
    const tools = [toolReturning(ok(1), "a"), toolReturning(error("bad"), "b")];
    const { messages } = await runToolCalls([call("c1", "a"), call("c2", "b")], tools, { toolResultEncoder: encoder });
    expect(messages.map((m) => [m.content, m.isError])).toEqual([
      ["<1>", false],
      ["!bad", true],
    ]);
  });

  it("when encodeError throws, the decision stands and the content falls back to jsonEncoder, without a second policy call", async () => {
    const encoder: ToolResultEncoder = {
      encode: jsonEncoder.encode,
      encodeError: () => {
        throw new Error("encoder bug");
      },
    };
    const policy = vi.fn((_c: unknown, _e: unknown) => "halt" as const);
    const result = await runToolCalls([call("c1", "t")], [toolReturning(error("bad"))], { toolResultEncoder: encoder, onToolError: policy });
    expect(policy).toHaveBeenCalledTimes(1);
    expect(result).toEqual({
      messages: [{ role: "tool", toolCallId: "c1", name: "t", content: '{"error":"bad"}', isError: true }],
      halt: { haltedReason: "tool_error", haltToolCallId: "c1" },
      halts: [{ haltedReason: "tool_error", haltToolCallId: "c1" }],
    });
  });
});

describe("halt metadata", () => {
  it("is absent when no call halted", async () => {
    expect(await runToolCalls([call("c1", "t")], [toolReturning(ok(1))])).not.toHaveProperty("halt");
  });

  it("the lowest index wins, and every sibling still runs and keeps its message", async () => {
    const slowAsk = defineTool({
      name: "ask",
      description: "",
      schema: anyArgs,
      handler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return askUser("first?");
      },
    });
    const quickHalt = toolReturning(halt("quick", "q"), "stop");
    const fine = toolReturning(ok("fine"), "fine");
    const result = await runToolCalls([call("c0", "fine"), call("c1", "ask"), call("c2", "stop"), call("c3", "fine")], [slowAsk, quickHalt, fine]);
    expect(result.messages.map((m) => m.toolCallId)).toEqual(["c0", "c1", "c2", "c3"]);
    expect(result.messages.map((m) => m.content)).toEqual(["fine", "<awaiting user response>", "q", "fine"]);
    expect(result.halt).toEqual({ haltedReason: "ask_user", pendingQuestion: "first?", pendingToolCallId: "c1", askUserOpts: {} });
  });
});
