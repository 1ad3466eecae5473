/**
 * What `jsonEncoder` sends the model, pinned where the mutation run showed a change would pass
 * unseen: which strings lose stack frames and which are data, and what an error text says when a
 * ToolError's own fields were replaced after it was built.
 */
import { describe, expect, it } from "vitest";
import { defineTool, error, jsonEncoder, runToolCalls, ToolError } from "../../src/index.js";
import { anyArgs, call } from "../support/helpers.js";

const errorOf = (reason: unknown) => (JSON.parse(jsonEncoder.encodeError(reason)) as { error: string }).error;

/** `object` with each of `keys` redefined on it as a getter that throws. */
function unreadable<T extends object>(object: T, ...keys: string[]): T {
  for (const key of keys) {
    Object.defineProperty(object, key, {
      get() {
        throw new Error(`${key} getter`);
      },
    });
  }
  return object;
}

describe("jsonEncoder.encode", () => {
  describe("when a result carries no V8 stack trace", () => {
    it("sends its strings as they are, even one shaped like another engine's frame", () => {
      // `name@place:1:2` is how Firefox and Safari write a frame; it is also how a calendar writes a time.
      expect(jsonEncoder.encode("standup@09:30:00")).toBe("standup@09:30:00");
      expect(jsonEncoder.encode({ events: ["standup@09:30:00", "retro@16:00:00"] })).toBe('{"events":["standup@09:30:00","retro@16:00:00"]}');
    });
  });

  describe("when a result carries a V8 stack trace", () => {
    const trace = "Error: connection refused\n    at connect (/srv/app/db.js:3:9)\n    at async main (/srv/app/index.js:10:2)";

    it("cuts the frames out of a nested string and keeps its words", () => {
      expect(jsonEncoder.encode({ detail: `upstream failed\n${trace}` })).toBe('{"detail":"upstream failed\\nError: connection refused"}');
    });

    it("leaves out a `stack` that is a trace, and keeps a `stack` field that is data", () => {
      const result = { stack: "redis", error: { message: "connection refused", stack: trace } };
      expect(jsonEncoder.encode(result)).toBe('{"stack":"redis","error":{"message":"connection refused"}}');
    });
  });

  it.each([
    ["undefined", undefined],
    ["function", () => 1],
    ["symbol", Symbol("s")],
  ])("names what it cannot encode: %s", (kind, value) => {
    expect(() => jsonEncoder.encode(value)).toThrow(new TypeError(`Cannot encode ${kind} as JSON`));
  });
});

describe("jsonEncoder.encodeError of a ToolError whose fields were replaced", () => {
  it("says the reason alone when the message is empty, not a string, or cannot be read", () => {
    expect(errorOf(new ToolError("timeout", { message: "" }))).toBe("timeout");
    expect(errorOf(Object.assign(new ToolError("timeout"), { message: 42 }))).toBe("timeout");
    expect(errorOf(unreadable(new ToolError("timeout", { toolName: "weather" }), "message"))).toBe("timeout");
  });

  it("says the message when the reason cannot be read", () => {
    expect(errorOf(unreadable(new ToolError("timeout", { toolName: "weather" }), "reason"))).toBe("tool error (weather): timeout");
  });

  it('says "tool error" when neither can be read', () => {
    expect(errorOf(unreadable(new ToolError("timeout", { toolName: "weather" }), "reason", "message"))).toBe("tool error");
  });

  it("still answers the call when a handler returns one as its error, and the batch goes on", async () => {
    const tampered = unreadable(new ToolError("timeout", { toolName: "weather" }), "reason");
    const tools = [
      defineTool({ name: "weather", description: "", schema: anyArgs, handler: () => error(tampered) }),
      defineTool({ name: "time", description: "", schema: anyArgs, handler: () => ({ type: "ok", value: "09:30" }) }),
    ];
    const { messages } = await runToolCalls([call("c1", "weather"), call("c2", "time")], tools);
    expect(messages).toEqual([
      { role: "tool", toolCallId: "c1", name: "weather", content: '{"error":"tool error (weather): timeout"}', isError: true },
      { role: "tool", toolCallId: "c2", name: "time", content: "09:30", isError: false },
    ]);
  });
});
