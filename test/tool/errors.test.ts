import { describe, expect, it } from "vitest";
import { EngineError, isToolError, ToolError, TOOL_ERROR_REASONS } from "../../src/index.js";

describe("ToolError", () => {
  it("is an Error with the contract's fields and defaults", () => {
    const cause = new Error("boom");
    const e = new ToolError("handler_raised", { toolName: "weather", toolCallId: "c1", cause, metadata: { a: 1 } });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ reason: "handler_raised", toolName: "weather", toolCallId: "c1", cause, metadata: { a: 1 } });
    expect(e.name).toBe("ToolError");
  });

  it("defaults the message to `tool error: <reason>`, naming the tool when known", () => {
    expect(new ToolError("timeout").message).toBe("tool error: timeout");
    expect(new ToolError("timeout", { toolName: "weather" }).message).toBe("tool error (weather): timeout");
    expect(new ToolError("timeout", { message: "too slow" }).message).toBe("too slow");
  });

  it("defaults metadata to {}", () => {
    expect(new ToolError("not_found").metadata).toEqual({});
  });

  it.each(TOOL_ERROR_REASONS)("accepts the reason %s", (reason) => {
    expect(new ToolError(reason).reason).toBe(reason);
  });

  it("throws a TypeError for any other reason", () => {
    expect(() => new ToolError("exploded" as never)).toThrow(TypeError);
    expect(() => new ToolError("exploded" as never)).toThrow(/`reason`.*handler_raised.*got "exploded"/);
  });

  it("is recognised by isToolError, including instances of another copy of the class", () => {
    const foreign = Object.assign(new Error("x"), { name: "ToolError", reason: "timeout" });
    expect(isToolError(new ToolError("timeout"))).toBe(true);
    expect(isToolError(foreign)).toBe(true);
    expect(isToolError(new Error("x"))).toBe(false);
  });
});

describe("EngineError", () => {
  it("says which tool is unknown", () => {
    const e = new EngineError("unknown_tool", { toolName: "wether" });
    expect(e).toBeInstanceOf(Error);
    expect(e.reason).toBe("unknown_tool");
    expect(e.message).toBe("tool wether not in tools");
    expect(e.metadata).toEqual({ toolName: "wether" });
  });
});

describe("ToolError's optional fields", () => {
  it('are absent unless given, so `"cause" in error` tells whether there is a cause', () => {
    const bare = new ToolError("timeout");
    expect(Object.keys(bare).sort()).toEqual(["metadata", "name", "reason"]);
    expect("cause" in bare).toBe(false);
    expect("toolName" in bare).toBe(false);
    expect("cause" in new ToolError("handler_raised", { cause: undefined })).toBe(true);
  });
});
