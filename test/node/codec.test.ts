import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { askUser, error, halt, ok, type HandlerResult } from "../../src/index.js";
import { encodeResult } from "../../src/node/index.js";
import { overJson, roundTrip } from "./wire-helpers.js";

describe("encodeResult and decodeResult", () => {
  describe("when the data is JSON", () => {
    it("carries every result shape over JSON unchanged", () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.string(), (value, text) => {
          const json = overJson(value);
          expect(roundTrip(ok(value))).toEqual(ok(json));
          expect(roundTrip(halt(text, value))).toEqual(halt(text, json));
          expect(roundTrip(askUser(text, { value }))).toEqual(askUser(text, { value: json }));
          expect(roundTrip(error(value))).toEqual(error(json));
        }),
      );
    });

    it("keeps `__proto__` and the tag key as the user's own data", () => {
      const value = JSON.parse('{"__proto__": {"a": 1}, "$toolrx": "error", "n": {"$toolrx": "undefined"}}');
      const back = roundTrip(ok(value)) as { value: Record<string, unknown> };
      expect(Object.getPrototypeOf(back.value)).toBe(Object.prototype);
      expect(Object.keys(back.value)).toEqual(["__proto__", "$toolrx", "n"]);
      expect(back.value.n).toEqual({ $toolrx: "undefined" });
      expect(({} as Record<string, unknown>).a).toBeUndefined();
    });

    it("writes data as the default JSON encoder would: toJSON applied, NaN as null, undefined left out", () => {
      const date = new Date(0);
      expect(roundTrip(ok({ date, n: NaN, gone: undefined, f: () => 1, list: [undefined] }))).toEqual(
        ok({ date: "1970-01-01T00:00:00.000Z", n: null, list: [null] }),
      );
    });
  });

  describe("when the data cannot cross", () => {
    it.each([
      ["a bigint", ok(10n), "the value is a bigint"],
      ["a nested bigint", halt("h", { a: [1, 2n] }), "`a[1]` is a bigint"],
      [
        "a cycle",
        ok(
          (() => {
            const a: Record<string, unknown> = {};
            a.b = { a };
            return a;
          })(),
        ),
        "`b.a` refers back",
      ],
      [
        "a throwing getter",
        ok(
          Object.defineProperty({}, "g", {
            enumerable: true,
            get: () => {
              throw new Error("no");
            },
          }),
        ),
        "reading `g` threw",
      ],
      ["a deep nesting", ok(Array.from({ length: 600 }).reduce<unknown>((inner) => [inner], 0)), "nested deeper than 512"],
    ])("reports %s with where it is", (_, result, problem) => {
      const encoded = encodeResult(result as HandlerResult);
      expect(encoded.ok).toBe(false);
      expect(!encoded.ok && encoded.problem).toContain(problem);
    });

    it("carries a value that is undefined, a function or a symbol itself, and a Date as text JSON writes quoted (issue 41)", () => {
      expect(roundTrip(ok(undefined))).toEqual(ok(undefined));
      expect(roundTrip(halt("h", undefined))).toEqual(halt("h", undefined));
      const fn = roundTrip(ok(function price() {})) as { value: unknown };
      expect(typeof fn.value).toBe("function");
      expect((fn.value as () => unknown).name).toBe("price");
      expect(typeof (roundTrip(ok(Symbol("s"))) as { value: unknown }).value).toBe("symbol");
      // What the encoder writes of each is what it writes of the handler's own value.
      for (const value of [undefined, () => 1, new Date(0), { toJSON: () => "t" }, "t", { at: new Date(0) }]) {
        expect(JSON.stringify((roundTrip(ok(value)) as { value: unknown }).value)).toBe(JSON.stringify(value));
      }
    });

    it("reports a value that is not a result", () => {
      expect(encodeResult({ type: "maybe" } as never)).toEqual({ ok: false, problem: "the value is not a handler result" });
    });
  });

  describe("when an ok result carries content parts", () => {
    const base64 = fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString("base64"));
    const part = fc.oneof(
      fc.record({ type: fc.constant("text" as const), text: fc.string() }),
      fc.record({ type: fc.constant("image" as const), mediaType: fc.constantFrom("image/png", "image/jpeg"), data: base64 }),
      fc.record(
        { type: fc.constant("file" as const), url: fc.webUrl({ validSchemes: ["https"] }), name: fc.string({ minLength: 1 }) },
        { requiredKeys: ["type", "url"] },
      ),
      fc.record({ type: fc.constant("resource" as const), uri: fc.webUrl(), text: fc.string() }, { requiredKeys: ["type", "uri"] }),
    );

    it("carries the parts over JSON unchanged, beside the value", () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.array(part, { maxLength: 4 }), (value, parts) => {
          expect(roundTrip(ok(value, { parts }))).toEqual({ type: "ok", value: overJson(value), parts });
        }),
      );
      expect(roundTrip(ok("no parts"))).not.toHaveProperty("parts");
    });

    it("carries parts built by hand as they are, for the runner to check; reports those JSON cannot hold", () => {
      const byHand = { type: "ok", value: 1, parts: [{ type: "image", data: "not base64!" }] } as unknown as HandlerResult;
      expect(roundTrip(byHand)).toEqual(byHand);
      const bad = { type: "ok", value: 1, parts: [{ type: "text", text: 1n }] } as unknown as HandlerResult;
      expect(encodeResult(bad)).toEqual({ ok: false, problem: "`parts[0].text` is a bigint, which JSON cannot hold" });
    });
  });
});
