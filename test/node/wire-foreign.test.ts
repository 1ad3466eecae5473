import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { error, ToolError } from "../../src/index.js";
import { decodeResult, decodeThrown } from "../../src/node/index.js";
import { across, encoded, overJson } from "./wire-helpers.js";

// A wire the codec did not write, and error results whatever they carry (src/node/wire-decode.ts).

describe("a wire written by someone else", () => {
  const decodedReason = (reason: unknown): unknown => {
    const out = decodeResult({ type: "error", reason });
    if (!out.ok) throw new Error(out.problem);
    return (out.value as { reason: unknown }).reason;
  };
  const refusal = (reason: unknown): string => {
    const out = decodeResult({ type: "error", reason });
    if (out.ok) throw new Error("decoded");
    return out.problem;
  };

  it("reads each tag it knows", () => {
    expect(decodedReason({ $toolrx: "undefined" })).toBeUndefined();
    expect(decodedReason({ $toolrx: "bigint", value: "-12" })).toBe(-12n);
    expect(decodedReason({ $toolrx: "bigint", value: "340282366920938463463374607431768211456" })).toBe(2n ** 128n);
    expect(decodedReason({ $toolrx: "object", entries: { $toolrx: "x", n: { $toolrx: "bigint", value: "1" } } })).toEqual({ $toolrx: "x", n: 1n });
    expect(String(decodedReason({ $toolrx: "symbol", description: "d" }))).toBe("Symbol(d)");
    expect((decodedReason({ $toolrx: "symbol", description: 1 }) as symbol).description).toBeUndefined();
    expect((decodedReason({ $toolrx: "symbol" }) as symbol).description).toBeUndefined();
  });

  it.each([
    ["a bigint that is not an integer", { $toolrx: "bigint", value: "1.5" }],
    ["a bigint with text before", { $toolrx: "bigint", value: "x1" }],
    ["a bigint with text after", { $toolrx: "bigint", value: "1x" }],
    ["a bigint with two signs", { $toolrx: "bigint", value: "--1" }],
    ["an empty bigint", { $toolrx: "bigint", value: "" }],
    ["a bigint as a number", { $toolrx: "bigint", value: 1 }],
    ["escaped entries that are null", { $toolrx: "object", entries: null }],
    ["escaped entries that are text", { $toolrx: "object", entries: "x" }],
    ["an unknown tag", { $toolrx: "date" }],
    ["an inherited tag name", { $toolrx: "toString" }],
  ])("refuses %s as a malformed tag", (_, reason) => {
    expect(refusal(reason)).toBe("the value has a malformed `$toolrx` tag");
  });

  it.each([
    ["a name that is not text", { $toolrx: "error", name: 1, message: "m" }, "the value is a malformed error"],
    ["a message that is not text", { $toolrx: "error", name: "E", message: null }, "the value is a malformed error"],
    [
      "a reason outside the set",
      { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "nope", metadata: {} },
      "the value is a malformed ToolError",
    ],
    [
      "metadata that is text",
      { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "timeout", metadata: "x" },
      "the value is a malformed ToolError",
    ],
    [
      "metadata that is null",
      { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "timeout", metadata: null },
      "the value is a malformed ToolError",
    ],
    [
      "metadata that is a list",
      { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "timeout", metadata: [] },
      "the value is a malformed ToolError",
    ],
    ["no metadata", { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "timeout" }, "`metadata` is not JSON data"],
    [
      "metadata that decodes to undefined",
      { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "timeout", metadata: { $toolrx: "undefined" } },
      "the value is a malformed ToolError",
    ],
  ])("refuses an error with %s", (_, reason, problem) => {
    expect(refusal(reason)).toBe(problem);
  });

  it("says where a value that is not JSON data is", () => {
    expect(decodeResult({ type: "ok", value: { a: [1, Number.NaN] } })).toEqual({ ok: false, problem: "`a[1]` is not JSON data" });
    expect(decodeResult({ type: "ok", value: undefined })).toEqual({ ok: false, problem: "the value is not JSON data" });
    expect(decodeResult({ type: "ok", value: Number.POSITIVE_INFINITY })).toEqual({ ok: false, problem: "the value is not JSON data" });
    expect(decodeResult({ type: "ok", value: [() => 1] })).toEqual({ ok: false, problem: "`[0]` is not JSON data" });
    expect(refusal({ $toolrx: "error", name: "E", message: "m", data: { x: { y: 1n } } })).toBe("`data.x.y` is not JSON data");
    expect(refusal({ $toolrx: "error", name: "E", message: "m", cause: [undefined] })).toBe("`cause[0]` is not JSON data");
  });

  it("refuses nesting deeper than 512 levels through records, error causes and error data alike", () => {
    const wrap = (levels: number, around: (inner: unknown) => unknown): unknown => {
      let value: unknown = 0;
      for (let i = 0; i < levels; i++) value = around(value);
      return value;
    };
    const error = (inner: unknown) => ({ $toolrx: "error", name: "E", message: "m", cause: inner });
    const data = (inner: unknown) => ({ $toolrx: "error", name: "E", message: "m", data: { d: inner } });
    const escaped = (inner: unknown) => ({ $toolrx: "object", entries: { e: inner } });
    for (const around of [(inner: unknown) => ({ a: inner }), error, data, escaped]) {
      expect(decodeResult({ type: "ok", value: wrap(512, around) }).ok).toBe(true);
      const deep = decodeResult({ type: "ok", value: wrap(513, around) });
      expect(!deep.ok && deep.problem).toMatch(/ is nested deeper than 512 levels$/);
    }
  });

  it("gives an error named like an Object method a plain Error, its name kept", () => {
    for (const name of ["toString", "constructor", "hasOwnProperty", "__proto__"]) {
      const back = decodedReason({ $toolrx: "error", name, message: "m", cause: 1 }) as Error;
      expect(back).toBeInstanceOf(Error);
      expect(Object.getPrototypeOf(back)).toBe(Error.prototype);
      expect([back.name, back.message, back.cause, back.stack]).toEqual([name, "m", 1, `${name}: m`]);
    }
  });

  it("ignores error data that is not a record", () => {
    for (const data of [null, [1, 2], "text", 3]) {
      const back = decodedReason({ $toolrx: "error", name: "E", message: "m", data }) as Error;
      expect(Object.keys(back)).toEqual([]);
    }
  });

  it("keeps a ToolError's names only when they are text", () => {
    const back = decodedReason({ $toolrx: "tool_error", name: "ToolError", message: "m", reason: "timeout", toolName: 1, toolCallId: null, metadata: {} });
    expect(back).toBeInstanceOf(ToolError);
    expect(back).not.toHaveProperty("toolName");
    expect(back).not.toHaveProperty("toolCallId");
    expect(Object.hasOwn(back as object, "cause")).toBe(false);
  });
});

describe("an error result, whatever it carries", () => {
  /**
   * Sends an error with `data` as its own properties and checks what the other side holds. Each
   * key is defined, not assigned: assigning an own `__proto__` key would set the error's prototype
   * instead of giving it data, and reading it back would read the prototype.
   */
  function crossesUnchanged(message: string, data: Record<string, unknown>, cause: unknown): void {
    const sent = new Error(message, { cause });
    for (const [key, value] of Object.entries(data)) Object.defineProperty(sent, key, { value, enumerable: true, writable: true, configurable: true });
    const back = decodeResult(overJson(encoded(error(sent))));
    expect(back.ok).toBe(true);
    const reason = (back as { value: { reason: Error & Record<string, unknown> } }).value.reason;
    expect(reason).toBeInstanceOf(Error);
    expect(Object.getPrototypeOf(reason)).toBe(Error.prototype);
    expect(reason.message).toBe(message);
    expect(reason.cause).toEqual(overJson(cause));
    for (const key of Object.keys(data).filter((k) => !["stack", "message", "name", "cause"].includes(k))) {
      expect(Object.getOwnPropertyDescriptor(reason, key)?.value).toEqual(overJson(data[key]));
    }
  }

  it("crosses and decodes as the same thing, for any error data fast-check makes", () => {
    fc.assert(fc.property(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), crossesUnchanged));
  });

  // Issue 41: a renamed RangeError came back as an Error, and a ToolError's own extra data was dropped.
  it("keeps a renamed built-in error's class, and a ToolError's own extra data", () => {
    const renamed = Object.assign(new RangeError("out"), { name: "OutOfStock" });
    const back = across(renamed) as Error;
    expect(back).toBeInstanceOf(RangeError);
    expect(back.name).toBe("OutOfStock");
    const tool = Object.assign(new ToolError("timeout", { toolName: "t", message: "slow", metadata: { ms: 5 } }), { retryAfter: 30 });
    const toolBack = across(tool) as ToolError & { retryAfter?: unknown };
    expect(toolBack).toBeInstanceOf(ToolError);
    expect(toolBack).toMatchObject({ reason: "timeout", toolName: "t", metadata: { ms: 5 }, retryAfter: 30 });
    // Data on the wire never overrides a ToolError's own fields.
    const forged = decodeThrown({
      $toolrx: "tool_error",
      name: "ToolError",
      message: "m",
      reason: "timeout",
      metadata: {},
      data: { reason: "nope", x: 1 },
    }) as ToolError;
    expect(forged.reason).toBe("timeout");
    expect(forged).toHaveProperty("x", 1);
  });

  // Seed -1021691178: fast-check's dictionary made an own `__proto__` key, which the property
  // assigned onto the error and so turned it into an object with a null prototype.
  it("keeps an own __proto__ key of an error's data as data, the error's prototype untouched", () => {
    crossesUnchanged("", JSON.parse('{"__proto__": null}') as Record<string, unknown>, 0);
    crossesUnchanged("m", JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>, null);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
