import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { error, ok, ToolError, type HandlerResult } from "../../src/index.js";
import { decodeResult, decodeThrown, encodeResult, encodeThrown } from "../../src/node/index.js";

// What crosses a thread or a job queue, value by value (src/node/wire.ts), seen from the codec's
// public functions: each test pins what a user on the other side would see change.

/** Through JSON and back, as a job queue carries it. */
const overJson = (wire: unknown): unknown => JSON.parse(JSON.stringify(wire));

function encoded(result: HandlerResult): unknown {
  const out = encodeResult(result);
  if (!out.ok) throw new Error(`not encodable: ${out.problem}`);
  return out.value;
}

function problemOf(result: unknown): string {
  const out = encodeResult(result as HandlerResult);
  if (out.ok) throw new Error("encodable");
  return out.problem;
}

const nested = (levels: number, leaf: unknown = 0): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

/** An error thrown across: what the other side holds. */
const across = (value: unknown): unknown => decodeThrown(overJson(encodeThrown(value)));

describe("data of a result, as the default JSON encoder would write it", () => {
  it("writes what JSON.stringify writes, for any JSON-like value with undefined, NaN, dates and functions inside", () => {
    const leaf = fc.oneof(
      fc.jsonValue(),
      fc.constant(undefined),
      fc.constant(Number.NaN),
      fc.constant(Number.POSITIVE_INFINITY),
      fc.date({ noInvalidDate: true }),
      fc.constant(() => 1),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("tree"), { maxLength: 3 }), fc.dictionary(fc.string(), tie("tree"), { maxKeys: 3 })),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), tree, { maxKeys: 4 }), (value) => {
        const wire = encoded(ok(value)) as { value: unknown };
        // Exactly JSON's: no key whose value is undefined, so the wire is the same before and after JSON.
        expect(JSON.stringify(wire.value)).toBe(JSON.stringify(value));
        expect(wire.value).toStrictEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("gives each toJSON the key it is under, as JSON.stringify does, at any depth", () => {
    const keyed = fc.constant(null).map(() => ({ toJSON: (key: string) => `under ${JSON.stringify(key)}` }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        keyed,
        fc.integer(),
        fc.array(tie("tree"), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie("tree"), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        // The encoder on the other side writes the value it gets as JSON wrote the handler's own.
        const back = decodeResult(overJson(encoded(ok(value))));
        expect(JSON.stringify((back as { value: { value: unknown } }).value.value)).toBe(JSON.stringify(value));
      }),
    );
    const inError = across(Object.assign(new Error("m"), { at: { toJSON: (key: string) => key } })) as { at: unknown };
    expect(inError.at).toBe("at");
  });

  it("lets one object appear twice, side by side, where it is no cycle", () => {
    const shared = { n: 1 };
    expect(encoded(ok({ a: shared, b: shared, list: [shared, shared] }))).toEqual({
      type: "ok",
      value: { a: { n: 1 }, b: { n: 1 }, list: [{ n: 1 }, { n: 1 }] },
    });
    expect(decodeThrown(overJson(encodeThrown({ a: shared, b: [shared] })))).toEqual({ a: { n: 1 }, b: [{ n: 1 }] });
  });

  it("applies toJSON as JSON does: to null, to a primitive, to an object that has one itself, to itself", () => {
    const self = {
      kept: 1,
      toJSON() {
        return this;
      },
    };
    const value = {
      none: { toJSON: () => null },
      text: { toJSON: () => "t" },
      chained: { toJSON: () => ({ toJSON: () => "inner", other: 2 }) },
      self,
      gone: { toJSON: () => undefined },
      notAFunction: { toJSON: 1, kept: 2 },
    };
    expect(encoded(ok(value))).toEqual({ type: "ok", value: JSON.parse(JSON.stringify(value)) });
    expect((encoded(ok(value)) as { value: object }).value).not.toHaveProperty("gone");
    // At the top, toJSON is given the empty key, as JSON.stringify gives it; its text crosses as a
    // stand-in JSON writes quoted, as it writes the handler's own value.
    expect(encoded(ok({ toJSON: (key: string) => `key:${key}` }))).toEqual({ type: "ok", value: { $toolrx: "json", value: "key:" } });
  });

  it("sends an Error that toJSON gives as the Error it is, as an ok value that is an Error crosses", () => {
    const back = decodeResult(overJson(encoded(ok({ at: { toJSON: () => new RangeError("r") } }))));
    const at = (back as { value: { value: { at: unknown } } }).value.value.at;
    expect(at).toBeInstanceOf(RangeError);
    expect((at as Error).message).toBe("r");
  });

  it("names what cannot cross and where: a toJSON that throws, an unreadable object, a bigint", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(
      problemOf(
        ok({
          a: [
            {
              toJSON: () => {
                throw new Error("no");
              },
            },
          ],
        }),
      ),
    ).toBe("reading `a[0]` threw");
    expect(problemOf(ok(proxy))).toBe("reading the value threw");
    expect(problemOf(ok([1, proxy]))).toBe("reading `[1]` threw");
    expect(problemOf({ type: "halt", reason: "h", result: { x: 1n } })).toBe("`x` is a bigint, which JSON cannot hold");
    expect(problemOf({ type: "halt", reason: "h", result: 1n })).toBe("the result is a bigint, which JSON cannot hold");
    const opts = {
      toJSON() {
        throw new Error("no");
      },
    };
    expect(problemOf({ type: "ask_user", question: "q", opts })).toBe("reading the opts threw");
  });

  it("goes 512 levels deep and no deeper, on both sides", () => {
    // ok(v): v itself is level 0, so 512 lists around a number hold it at level 512, the last list at 511.
    expect(decodeResult(overJson(encoded(ok(nested(512))))).ok).toBe(true);
    expect(problemOf(ok(nested(513)))).toBe(`\`${"[0]".repeat(512)}\` is nested deeper than 512 levels`);
    expect(decodeResult({ type: "ok", value: nested(512) })).toEqual({ ok: true, value: { type: "ok", value: nested(512) } });
    expect(decodeResult({ type: "ok", value: nested(513) })).toEqual({
      ok: false,
      problem: `\`${"[0]".repeat(512)}\` is nested deeper than 512 levels`,
    });
  });
});

describe("errors, as far as they can cross", () => {
  it("writes a plain Error as its name and message alone", () => {
    expect(encodeThrown(new TypeError("bad"))).toEqual({ $toolrx: "error", name: "TypeError", message: "bad" });
    expect(encodeThrown(Object.assign(new Error("m"), { name: "" }))).toEqual({ $toolrx: "error", name: "Error", message: "m" });
    expect(encodeThrown(Object.assign(new Error("m"), { name: 3, message: { not: "text" } }))).toEqual({ $toolrx: "error", name: "Error", message: "" });
  });

  it("leaves the stack, message, name and cause out of an error's data even when they are enumerable", () => {
    const sent = new Error("m", { cause: 1 });
    for (const key of ["stack", "message", "name", "cause"]) {
      Object.defineProperty(sent, key, { value: Reflect.get(sent, key), enumerable: true, writable: true, configurable: true });
    }
    (sent as Error & { status?: number }).status = 500;
    expect(encodeThrown(sent)).toEqual({ $toolrx: "error", name: "Error", message: "m", data: { status: 500 }, cause: 1 });
  });

  it("keeps a cause that is there but undefined, and adds none that is not there", () => {
    const withUndefined = across(new Error("m", { cause: undefined })) as Error;
    expect(Object.hasOwn(withUndefined, "cause")).toBe(true);
    expect(withUndefined.cause).toBeUndefined();
    expect(Object.hasOwn(across(new Error("m")) as Error, "cause")).toBe(false);
    const tool = across(new ToolError("timeout", { toolName: "t" })) as ToolError;
    expect(Object.hasOwn(tool, "cause")).toBe(false);
    expect(tool).not.toHaveProperty("toolCallId");
  });

  it("keeps null data and a null cause as null, not undefined", () => {
    const back = across(Object.assign(new Error("m", { cause: null }), { code: null })) as Error & { code: unknown };
    expect(back.cause).toBeNull();
    expect(back.code).toBeNull();
    expect(encodeThrown(Object.assign(new Error("m", { cause: null }), { code: null }))).toEqual({
      $toolrx: "error",
      name: "Error",
      message: "m",
      data: { code: null },
      cause: null,
    });
  });

  it("keeps a ToolError's class and reason when its metadata is no record, holding what there was", () => {
    const cases: [unknown, unknown][] = [
      [null, { value: null }],
      [[1], { value: [1] }],
      ["text", { value: "text" }],
      [undefined, { value: undefined }],
      [2n, { value: 2n }],
      ["self", { value: "[Circular]" }],
      [{ $toolrx: 1 }, { $toolrx: 1 }],
      [new RangeError("r"), new RangeError("r")],
      [new ToolError("not_found", { message: "inner" }), new ToolError("not_found", { message: "inner" })],
    ];
    for (const [metadata, expected] of cases) {
      const sent = new ToolError("timeout", { toolName: "t" });
      Object.defineProperty(sent, "metadata", { value: metadata === "self" ? sent : metadata, enumerable: true });
      const back = decodeResult(overJson(encoded(error(sent))));
      expect(back.ok).toBe(true);
      const reason = (back as { value: { reason: ToolError } }).value.reason;
      expect(reason).toBeInstanceOf(ToolError);
      expect([reason.reason, reason.toolName]).toEqual(["timeout", "t"]);
      expect(reason.metadata).toEqual(expected);
      if (expected instanceof Error) expect(Object.getPrototypeOf(reason.metadata)).toBe(Object.getPrototypeOf(expected));
    }
  });

  it("gives an error's own data back as enumerable, writable data, undefined included", () => {
    const back = across(Object.assign(new Error("m"), { status: 503, gone: undefined, big: 2n })) as Error & Record<string, unknown>;
    expect(Object.keys(back)).toEqual(["status", "gone", "big"]);
    expect(back.gone).toBeUndefined();
    expect(back.big).toBe(2n);
    back.status = 200;
    expect(back.status).toBe(200);
    delete back.status;
    expect(back).not.toHaveProperty("status");
  });

  it("gives back an error that can be renamed and re-stacked, with the own properties one made here has", () => {
    for (const sent of [new TypeError("t"), new Error("e"), Object.assign(new RangeError("r"), { name: "Custom" })]) {
      const back = across(sent) as Error;
      const fresh = new (sent.constructor as ErrorConstructor)("x");
      expect(Object.getOwnPropertyNames(back).sort()).toEqual([...Object.getOwnPropertyNames(fresh), ...(sent.name === "Custom" ? ["name"] : [])].sort());
      expect(Object.getOwnPropertyDescriptor(back, "stack")).toMatchObject({ writable: true, configurable: true, enumerable: false });
      if (sent.name === "Custom") {
        expect(Object.getOwnPropertyDescriptor(back, "name")).toMatchObject({ value: "Custom", writable: true, configurable: true });
      }
      back.name = "Renamed";
      back.stack = "s";
      expect([back.name, back.stack]).toEqual(["Renamed", "s"]);
    }
  });

  it("reads what it can of an error whose properties throw or lie, and never throws", () => {
    const throwing = new Error("m");
    Object.defineProperty(throwing, "message", {
      get() {
        throw new Error("no");
      },
    });
    expect(encodeThrown(throwing)).toEqual({ $toolrx: "error", name: "Error", message: "[unreadable]" });
    const noKeys = new Proxy(new Error("m"), {
      ownKeys() {
        throw new Error("no keys");
      },
    });
    expect(encodeThrown(noKeys)).toEqual({ $toolrx: "error", name: "Error", message: "m" });
    const noDescriptors = new Proxy(new Error("m", { cause: 1 }), {
      getOwnPropertyDescriptor() {
        throw new Error("no descriptors");
      },
    });
    expect(encodeThrown(noDescriptors)).toEqual({ $toolrx: "error", name: "Error", message: "m" });
    const { proxy, revoke } = Proxy.revocable(new Error("m"), {});
    revoke();
    expect(encodeThrown(proxy)).toBe("[unreadable]");
    expect(encodeThrown({ inner: proxy, list: [proxy], kept: 1 })).toEqual({ inner: "[unreadable]", list: ["[unreadable]"], kept: 1 });
  });

  it("cuts an error's data 64 levels down", () => {
    const back = across(Object.assign(new Error("m"), { deep: nested(70) })) as { deep: unknown };
    // The error is level 0, `deep` level 1: 63 arrays fit, the 64th is cut.
    expect(back.deep).toEqual(nested(63, "[...]"));
  });

  it("sends functions and symbols by name or description alone", () => {
    const anonymous = [() => 1][0];
    const nameThrows = Object.defineProperty(() => 1, "name", {
      get() {
        throw new Error("no");
      },
    });
    const namedByNumber = Object.defineProperty(() => 1, "name", { value: 5 });
    // Strictly: a tag has no key whose value is undefined, so it is the same before and after JSON.
    expect(encodeThrown([function named() {}, anonymous, nameThrows, namedByNumber, Symbol("d"), Symbol()])).toStrictEqual([
      { $toolrx: "function", name: "named" },
      { $toolrx: "function" },
      { $toolrx: "function" },
      { $toolrx: "function" },
      { $toolrx: "symbol", description: "d" },
      { $toolrx: "symbol" },
    ]);
    expect(encodeThrown(7n)).toEqual({ $toolrx: "bigint", value: "7" });
    expect(encodeThrown({ $toolrx: 1 })).toEqual({ $toolrx: "object", entries: { $toolrx: 1 } });
  });

  it("gives back a function that says what it was when called", () => {
    const named = decodeThrown({ $toolrx: "function", name: "report" }) as () => unknown;
    expect(named).toThrow(new TypeError("the function report crossed a thread or a process as data and cannot be called"));
    const unnamed = decodeThrown({ $toolrx: "function", name: 1 }) as () => unknown;
    expect(unnamed.name).toBe("");
    expect(unnamed).toThrow(new TypeError("the function crossed a thread or a process as data and cannot be called"));
  });
});

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
