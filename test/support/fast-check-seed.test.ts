import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hunting, huntRuns } from "./hunt-runs.js";
import { FIXED_SEED, suiteSeed } from "./suite-seed.js";

/** The values a property with its own `numRuns` (and no seed) is given. */
function generated(): number[] {
  const seen: number[] = [];
  fc.assert(
    fc.property(fc.integer(), (n) => {
      seen.push(n);
    }),
    { numRuns: 20 },
  );
  return seen;
}

describe("the fast-check seed of npm test", () => {
  it("is the suite's seed for every property", () => {
    expect(fc.readConfigureGlobal().seed).toBe(suiteSeed());
    if (process.env.TOOLRX_SEED === undefined) expect(fc.readConfigureGlobal().seed).toBe(FIXED_SEED);
  });

  it("still holds for a property that sets its own numRuns: it sees the same values every time", () => {
    const first = generated();
    expect(first).toHaveLength(20);
    expect(generated()).toEqual(first);
  });

  it("gives way to a property's own seed (a replay)", () => {
    const own = (seed: number) => fc.sample(fc.integer(), { numRuns: 5, seed });
    expect(own(-1359196645)).toEqual(own(-1359196645));
    expect(own(-1359196645)).not.toEqual(fc.sample(fc.integer(), { numRuns: 5 }));
  });

  describe("suiteSeed", () => {
    it("reads TOOLRX_SEED, the fixed seed without it", () => {
      expect(suiteSeed({})).toBe(FIXED_SEED);
      expect(suiteSeed({ TOOLRX_SEED: "-1359196645" })).toBe(-1359196645);
      expect(suiteSeed({ TOOLRX_SEED: "42" })).toBe(42);
    });

    it.each(["abc", "1.5", "1e3", "2147483648", "-2147483649", "0x10"])("refuses TOOLRX_SEED=%s", (text) => {
      expect(() => suiteSeed({ TOOLRX_SEED: text })).toThrow(TypeError);
    });
  });
});

describe("the hunt switch", () => {
  it("is TOOLRX_HUNT=1, what npm run hunt sets on every round, for the properties' run counts too", () => {
    expect([hunting({}), hunting({ TOOLRX_HUNT: "" }), hunting({ TOOLRX_HUNT: "1" })]).toEqual([false, false, true]);
    expect([huntRuns(25, 100, {}), huntRuns(25, 100, { TOOLRX_HUNT: "1" })]).toEqual([25, 100]);
    // The hunt's own environment, as scripts/hunt.mjs gives it to vitest.
    const hunt = readFileSync(new URL("../../scripts/hunt.mjs", import.meta.url), "utf8");
    expect(hunt).toContain('TOOLRX_HUNT: "1"');
  });

  it("refuses a value it would not read as a hunt, and the old HUNT switch, rather than run npm test's counts unsaid", () => {
    expect(() => hunting({ TOOLRX_HUNT: "true" })).toThrow(/`TOOLRX_HUNT` to be 1 or unset, got "true"/);
    expect(() => huntRuns(25, 100, { HUNT: "1" })).toThrow(/`HUNT` is not read any more: set `TOOLRX_HUNT=1`/);
  });
});
