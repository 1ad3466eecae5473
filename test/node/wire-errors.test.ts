import { describe, expect, it } from "vitest";
import { error, ToolError } from "../../src/index.js";
import { decodeResult, decodeThrown, encodeThrown } from "../../src/node/index.js";
import { across, encoded, nested, overJson } from "./wire-helpers.js";

// Errors thrown across a thread or a job queue (src/node/wire-encode.ts, wire-decode.ts): what the other side holds.

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
