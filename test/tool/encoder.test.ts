import { describe, expect, it } from "vitest";
import { jsonEncoder, ToolError } from "../../src/index.js";

describe("jsonEncoder.encode", () => {
  it("passes strings through raw, the empty string too", () => {
    expect(jsonEncoder.encode("sunny")).toBe("sunny");
    expect(jsonEncoder.encode("")).toBe("");
  });

  it("JSON.stringifies everything else", () => {
    expect(jsonEncoder.encode({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(jsonEncoder.encode(42)).toBe("42");
    expect(jsonEncoder.encode(null)).toBe("null");
  });

  it("omits nested values JSON omits, as JSON.stringify does", () => {
    expect(jsonEncoder.encode({ a: undefined, f: () => 1, s: Symbol("s"), b: 2 })).toBe('{"b":2}');
  });

  it.each([
    ["undefined", undefined],
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
    ["a bigint", 10n],
  ])("throws for %s", (_, value) => {
    expect(() => jsonEncoder.encode(value)).toThrow();
  });

  it("throws for a cycle", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonEncoder.encode(cyclic)).toThrow();
  });

  it("refuses a value nested deeper than 512 levels, as a worker thread's or a job's codec does", () => {
    const nested = (levels: number): unknown => Array.from({ length: levels }).reduce<unknown>((inner) => [inner], 0);
    expect(jsonEncoder.encode(nested(512))).toBe(`${"[".repeat(512)}0${"]".repeat(512)}`);
    expect(() => jsonEncoder.encode(nested(513))).toThrow("nested deeper than 512 levels");
    // Objects count as arrays do; brackets inside strings do not.
    const objects = Array.from({ length: 513 }).reduce<unknown>((inner) => ({ k: inner }), 0);
    expect(() => jsonEncoder.encode(objects)).toThrow("nested deeper than 512 levels");
    expect(jsonEncoder.encode({ text: `"\\${"[".repeat(2_000)}` })).toContain("[[[");
  });

  it("is deterministic", () => {
    const value = { z: 1, a: [1, 2, { c: "d" }] };
    expect(jsonEncoder.encode(value)).toBe(jsonEncoder.encode(structuredClone(value)));
  });
});

describe("jsonEncoder.encodeError", () => {
  const text = (reason: unknown) => (JSON.parse(jsonEncoder.encodeError(reason)) as { error: string }).error;

  it("gives { error: <text> } for a string", () => {
    expect(jsonEncoder.encodeError("city not found")).toBe('{"error":"city not found"}');
  });

  it("gives a ToolError's reason, message and its cause's message", () => {
    const e = new ToolError("handler_raised", { toolName: "weather", cause: new Error("boom") });
    expect(text(e)).toBe("tool error (weather): handler_raised: boom");
  });

  it("names the reason when a custom message does not", () => {
    expect(text(new ToolError("timeout", { message: "weather timed out after 5 ms" }))).toBe("timeout: weather timed out after 5 ms");
  });

  it("renders a non-Error cause as JSON", () => {
    const e = new ToolError("handler_raised", { toolName: "t", cause: { thrown: "boom" } });
    expect(text(e)).toBe('tool error (t): handler_raised: {"thrown":"boom"}');
  });

  it("gives another Error's message", () => {
    expect(text(new TypeError("bad"))).toBe("bad");
  });

  it("gives a JSON rendering of anything else", () => {
    expect(text({ code: 42 })).toBe('{"code":42}');
    expect(text(7)).toBe("7");
  });

  it("never throws, even for values JSON cannot represent", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonEncoder.encodeError(cyclic)).not.toThrow();
    expect(() => jsonEncoder.encodeError(10n)).not.toThrow();
    expect(() => jsonEncoder.encodeError(undefined)).not.toThrow();
  });

  it("never includes a stack trace", () => {
    const inner = new Error("inner");
    const e = new ToolError("handler_raised", { toolName: "t", cause: inner });
    for (const reason of [e, inner, new TypeError("x")]) {
      const content = jsonEncoder.encodeError(reason);
      expect(content).not.toContain("    at ");
      expect(content).not.toContain(".ts:");
    }
  });
});
