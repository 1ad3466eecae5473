import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { askUser, error, halt, jsonEncoder, ok, TOOL_ERROR_REASONS, ToolError, type HandlerResult } from "../../src/index.js";
import { decodeResult, decodeThrown, encodeResult, encodeThrown } from "../../src/node/index.js";
import { overJson, roundTrip } from "./wire-helpers.js";

/** Values a hostile handler may return or throw: everything fast-check makes, plus traps. */
const hostile = fc.oneof(
  fc.anything({
    withBigInt: true,
    withMap: true,
    withSet: true,
    withDate: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
    withBoxedValues: true,
    withObjectString: true,
  }),
  fc.constant(Symbol("s")),
  fc.constant(() => 1),
  fc.constant(undefined),
  fc.constant(
    Object.defineProperty({}, "boom", {
      enumerable: true,
      get() {
        throw new Error("getter");
      },
    }),
  ),
  fc.constant(
    (() => {
      const a: Record<string, unknown> = { x: 1 };
      a.self = a;
      return a;
    })(),
  ),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}')),
  fc.constant(Proxy.revocable({}, {}).proxy),
  fc.constant({ $toolrx: "error", name: 1 }),
);

describe("encodeResult and decodeResult", () => {
  describe("when the result is an error", () => {
    it("keeps a ToolError's reason, message, names, metadata and cause chain", () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...TOOL_ERROR_REASONS),
          fc.string(),
          fc.option(fc.string(), { nil: undefined }),
          fc.dictionary(fc.string(), fc.jsonValue()),
          fc.string(),
          (reason, message, toolName, metadata, causeMessage) => {
            const root = new RangeError(causeMessage, { cause: { thrown: "deep" } });
            const sent = new ToolError(reason, { message, toolCallId: "c1", metadata, cause: root, ...(toolName !== undefined && { toolName }) });
            const back = (roundTrip(error(sent)) as { reason: ToolError }).reason;
            expect(back).toBeInstanceOf(ToolError);
            const { cause: _sent, ...fields } = sent;
            const { cause: _back, ...backFields } = back;
            expect(backFields).toEqual(overJson(fields));
            expect(back.message).toBe(message);
            expect(back.cause).toBeInstanceOf(RangeError);
            expect((back.cause as Error).message).toBe(causeMessage);
            expect((back.cause as Error).cause).toEqual({ thrown: "deep" });
          },
        ),
      );
    });

    it("keeps another Error's name, message and own data, never its stack", () => {
      class HttpError extends Error {
        override name = "HttpError";
        status = 503;
      }
      const sent = Object.assign(new HttpError("down", { cause: 42 }), { body: { retry: true } });
      const back = (roundTrip(error(sent)) as { reason: Error & Record<string, unknown> }).reason;
      expect(back).toBeInstanceOf(Error);
      expect({ name: back.name, message: back.message, status: back.status, body: back.body, cause: back.cause }).toEqual({
        name: "HttpError",
        message: "down",
        status: 503,
        body: { retry: true },
        cause: 42,
      });
      expect(back.stack).toBe("HttpError: down");
      expect(JSON.stringify(encodeResult(error(sent)))).not.toContain("codec.test");
    });

    it("gives built-in Errors their class back", () => {
      const back = (roundTrip(error(new TypeError("t"))) as { reason: unknown }).reason;
      expect(back).toBeInstanceOf(TypeError);
    });

    it("describes what cannot cross instead of failing", () => {
      const cyclic: Record<string, unknown> = { n: 1n, s: Symbol("x"), u: undefined };
      cyclic.self = cyclic;
      const thrower = Object.defineProperty({}, "g", {
        enumerable: true,
        get: () => {
          throw new Error("no");
        },
      });
      const back = roundTrip(error({ cyclic, thrower, thrown: undefined })) as { reason: { cyclic: { s: unknown } } };
      expect(typeof back.reason.cyclic.s).toBe("symbol");
      expect(String(back.reason.cyclic.s)).toBe("Symbol(x)");
      expect(back).toEqual(
        error({ cyclic: { n: 1n, s: back.reason.cyclic.s, u: undefined, self: "[Circular]" }, thrower: { g: "[unreadable]" }, thrown: undefined }),
      );
    });

    it("reads the same to a model on the other side, functions and symbols included", () => {
      // An isolated handler that returns a function is `invalid_return` with the function as its cause.
      const named = function report() {};
      for (const value of [() => 1, named, Symbol("s"), Symbol(), { nested: named, s: Symbol("t"), kept: 1 }]) {
        const here = new ToolError("invalid_return", { toolName: "t", cause: value });
        const there = decodeThrown(overJson(encodeThrown(here)));
        expect(jsonEncoder.encodeError(there)).toBe(jsonEncoder.encodeError(here));
        expect(jsonEncoder.encodeError(decodeThrown(overJson(encodeThrown(value))))).toBe(jsonEncoder.encodeError(value));
      }
      const standIn = decodeThrown(overJson(encodeThrown(named))) as () => unknown;
      expect(standIn.name).toBe("report");
      expect(() => standIn()).toThrow(/cannot be called/);
    });
  });

  describe("when the value is hostile", () => {
    it("never throws, and what it encodes survives JSON and decodes", () => {
      fc.assert(
        fc.property(hostile, fc.constantFrom("ok", "error", "halt", "ask_user"), (value, type) => {
          const result = { ok: ok(value), error: error(value), halt: halt("h", value), ask_user: askUser("q", { value }) }[type];
          const encoded = encodeResult(result as HandlerResult);
          if (type === "error") expect(encoded.ok).toBe(true);
          if (!encoded.ok) return;
          const text = JSON.stringify(encoded.value);
          expect(JSON.parse(text)).toEqual(encoded.value);
          expect(decodeResult(JSON.parse(text)).ok).toBe(true);
        }),
      );
    });

    it("never pollutes a prototype while decoding", () => {
      decodeResult(JSON.parse('{"type":"ok","value":{"__proto__":{"polluted":true}}}'));
      decodeThrown(JSON.parse('{"$toolrx":"error","name":"E","message":"m","data":{"__proto__":{"polluted":true}}}'));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe("when the wire is malformed", () => {
    it.each([
      ["not an object", 1],
      ["an unknown shape", { type: "maybe" }],
      ["a bad tag", { type: "ok", value: { $toolrx: "nope" } }],
      [
        "a ToolError outside the closed set",
        { type: "error", reason: { $toolrx: "tool_error", name: "ToolError", message: "m", reason: "oops", metadata: {} } },
      ],
      ["an ask_user without a question", { type: "ask_user", opts: {} }],
    ])("reports %s", (_, wire) => {
      expect(decodeResult(wire).ok).toBe(false);
    });
  });
});

describe("encodeThrown and decodeThrown", () => {
  it("carry any thrown value, never failing", () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const wire = encodeThrown(value);
        expect(JSON.parse(JSON.stringify(wire))).toEqual(wire);
        decodeThrown(overJson(wire));
      }),
    );
  });

  it("bring back a thrown undefined, bigint and Error", () => {
    expect(decodeThrown(overJson(encodeThrown(undefined)))).toBeUndefined();
    expect(decodeThrown(overJson(encodeThrown(7n)))).toBe(7n);
    expect(decodeThrown(overJson(encodeThrown(new SyntaxError("s"))))).toBeInstanceOf(SyntaxError);
  });

  it("give back a malformed tag as the data it is", () => {
    expect(decodeThrown({ $toolrx: "bigint", value: "x" })).toEqual({ $toolrx: "bigint", value: "x" });
  });
});

describe("what the codec says went wrong (issue 36)", () => {
  it("names the field of the result that cannot cross", () => {
    expect(encodeResult(ok(10n))).toEqual({ ok: false, problem: "the value is a bigint, which JSON cannot hold" });
    expect(encodeResult(halt("h", { n: [1n] }))).toEqual({ ok: false, problem: "`n[0]` is a bigint, which JSON cannot hold" });
    expect(encodeResult(askUser("q", { a: 1n } as never))).toEqual({ ok: false, problem: "`a` is a bigint, which JSON cannot hold" });
  });

  it("answers a result whose own getter throws as a problem, never a throw", () => {
    const throwing = {
      type: "ok",
      get value(): never {
        throw new Error("x");
      },
    };
    expect(encodeResult(throwing as never)).toEqual({ ok: false, problem: "reading the result threw" });
  });

  it("carries a question without opts as one with empty opts", () => {
    expect(roundTrip(askUser("q"))).toEqual({ type: "ask_user", question: "q", opts: {} });
  });

  it.each([
    ["null", null, "the wire result is not an object"],
    ["a string", "ok", "the wire result is not an object"],
    ["a question that is not a string", { type: "ask_user", question: 1, opts: {} }, "the wire result is not one of the four result shapes"],
    ["null opts", { type: "ask_user", question: "q", opts: null }, "the wire result is not one of the four result shapes"],
    ["opts that are not an object", { type: "ask_user", question: "q", opts: "x" }, "the wire result is not one of the four result shapes"],
    ["a halt without a reason", { type: "halt", result: 1 }, "the wire result is not one of the four result shapes"],
    ["a malformed value", { type: "ok", value: { $toolrx: "bigint", value: "zz" } }, "the value has a malformed `$toolrx` tag"],
    ["malformed parts", { type: "ok", value: 1, parts: { $toolrx: "bigint", value: "zz" } }, "`parts` has a malformed `$toolrx` tag"],
  ])("refuses a wire result with %s, saying why", (_, wire, problem) => {
    expect(decodeResult(wire)).toEqual({ ok: false, problem });
  });

  it("decodes each shape from a wire written by hand", () => {
    expect(decodeResult({ type: "ok", value: 1 })).toEqual({ ok: true, value: { type: "ok", value: 1 } });
    expect(decodeResult({ type: "ok", value: 1 }).ok && Object.keys((decodeResult({ type: "ok", value: 1 }) as { value: object }).value)).toEqual([
      "type",
      "value",
    ]);
    expect(decodeResult({ type: "halt", reason: "r", result: [1] })).toEqual({ ok: true, value: { type: "halt", reason: "r", result: [1] } });
    expect(decodeResult({ type: "ask_user", question: "q", opts: { a: 1 } })).toEqual({ ok: true, value: { type: "ask_user", question: "q", opts: { a: 1 } } });
    expect(decodeResult({ type: "error", reason: "no" })).toEqual({ ok: true, value: { type: "error", reason: "no" } });
  });
});
