import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ok } from "../../src/index.js";
import { decodeResult, decodeThrown, encodeThrown } from "../../src/node/index.js";
import { across, encoded, nested, overJson, problemOf } from "./wire-helpers.js";

// What crosses a thread or a job queue, value by value (src/node/wire-encode.ts, wire-decode.ts), seen from the codec's
// public functions: each test pins what a user on the other side would see change.

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

  it('writes -0 as 0, as JSON.stringify does (the hunt\'s find: seed -694931208, shrunk to { "": [-0] })', () => {
    const wire = encoded(ok({ "": [-0], n: -0 })) as { value: { "": number[]; n: number } };
    expect(Object.is(wire.value[""][0], 0)).toBe(true);
    expect(Object.is(wire.value.n, 0)).toBe(true);
    // Beside a date, the full encoder writes the value rather than the plain copy.
    const dated = encoded(ok({ at: new Date(0), n: [-0] })) as { value: { at: string; n: number[] } };
    expect(dated.value.at).toBe("1970-01-01T00:00:00.000Z");
    expect(Object.is(dated.value.n[0], 0)).toBe(true);
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
