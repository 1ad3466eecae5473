import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeValue } from "../../src/node/wire-decode.js";
import { encodeValue } from "../../src/node/wire-encode.js";
import { NOT_PLAIN, plainCopy } from "../../src/node/wire-plain.js";

// The codec's fast path (src/node/wire-plain.ts): it may take a value only when its copy is what
// the full encoder and decoder give, and what JSON itself gives back.

/** The full encoder's answer, or the problem it refuses the value with. */
function fullEncode(value: unknown): unknown {
  try {
    return encodeValue(value, "exact");
  } catch (thrown) {
    return { refused: thrown };
  }
}

const nested = (levels: number): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe("plainCopy", () => {
  it("copies any JSON value as JSON gives it back", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copied = plainCopy(value);
        // Text, not objects: JSON writes -0 as 0, which the copy keeps as -0, as the full encoder does.
        expect(JSON.stringify(copied)).toBe(JSON.stringify(value));
        expect(copied).toEqual(fullEncode(value));
        if (typeof value === "object" && value !== null) expect(copied).not.toBe(value);
      }),
    );
  });

  it("gives what the full encoder and decoder give, for any value it takes", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withDate: true, withNullPrototype: true, withSparseArray: true }),
        (value) => {
          const copied = plainCopy(value);
          if (copied === NOT_PLAIN) return;
          expect(copied).toEqual(fullEncode(value));
          expect(copied).toEqual(decodeValue(value));
          expect(JSON.stringify(copied)).toBe(JSON.stringify(value));
        },
      ),
    );
  });

  describe("leaves to the full encoder and decoder", () => {
    const refused: [string, () => unknown][] = [
      ["a tag key, which the encoder escapes and the decoder reads", () => ({ a: { $toolrx: "undefined" } })],
      ["a Date, whose toJSON gives text", () => ({ at: new Date(0) })],
      ["an object with its own toJSON", () => ({ toJSON: () => 1 })],
      ["a toJSON key holding data", () => ({ toJSON: 1 })],
      ["NaN and Infinity, written as null", () => [Number.NaN, Number.POSITIVE_INFINITY]],
      ["undefined in an object, left out", () => ({ gone: undefined })],
      ["a hole in a list, written as null", () => Object.assign(new Array(3), { 0: 1, 2: 3 })],
      ["a list with its own iterator", () => Object.assign([1, 2], { [Symbol.iterator]: () => [][Symbol.iterator]() })],
      ["a list of a subclass", () => new (class Items extends Array {})()],
      [
        "a class instance",
        () =>
          new (class Point {
            x = 1;
          })(),
      ],
      ["a bigint", () => ({ n: 1n })],
      [
        "a cycle",
        () =>
          (() => {
            const a: Record<string, unknown> = {};
            a.self = a;
            return a;
          })(),
      ],
      ["nesting past 512 levels", () => nested(513)],
      [
        "a getter that throws",
        () =>
          Object.defineProperty({}, "x", {
            enumerable: true,
            get: () => {
              throw new Error("no");
            },
          }),
      ],
    ];
    it.each(refused)("%s", (_, make) => {
      expect(plainCopy(make())).toBe(NOT_PLAIN);
    });
  });

  it("takes nesting of 512 levels, as the full encoder does, objects without a prototype and a `__proto__` key as an own key", () => {
    expect(plainCopy(nested(512))).toEqual(fullEncode(nested(512)));
    expect(fullEncode(nested(513))).toHaveProperty("refused");
    const parsed = plainCopy(JSON.parse('{"__proto__": {"x": 1}}')) as object;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, "__proto__")).toBe(true);
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(plainCopy(bare)).toEqual({ a: 1 });
  });
});
