import { Validator, type Schema } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flatObjectCheck } from "../../src/schema/flat-object-check.js";
import { compileJsonSchema } from "../../src/schema/json-schema.js";

// The oracle is @cfworker/json-schema itself, the general validator the check stands in for.
const oracle = (schema: object, args: unknown) => new Validator(JSON.parse(JSON.stringify(schema)) as Schema, "2020-12", true).validate(args).valid;

const NAMES = ["a", "b", "c", "toString", "constructor"];
const propertySchema = fc.record(
  { type: fc.constantFrom("string", "number", "integer", "boolean"), description: fc.string({ maxLength: 5 }) },
  { requiredKeys: ["type"] },
);
const flatSchema = fc.record(
  {
    type: fc.constant("object"),
    properties: fc.dictionary(fc.constantFrom(...NAMES), propertySchema, { maxKeys: 4 }),
    required: fc.uniqueArray(fc.constantFrom(...NAMES, "extra"), { maxLength: 3 }),
    additionalProperties: fc.boolean(),
    title: fc.string({ maxLength: 5 }),
  },
  { requiredKeys: ["type"] },
);
const scalar = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1.5, 2 ** 53, 1e21, -1e-7),
  fc.boolean(),
  fc.constant(null),
);
const scalarArgs = fc
  .dictionary(fc.constantFrom(...NAMES, "extra", "other"), scalar, { maxKeys: 6 })
  .map((a) => JSON.parse(JSON.stringify(a)) as Record<string, unknown>);
const jsonArgs = fc
  .dictionary(fc.constantFrom(...NAMES, "extra", "other"), fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 6 })
  .map((a) => JSON.parse(JSON.stringify(a)) as Record<string, unknown>);

describe("flatObjectCheck", () => {
  it("never passes what the general validator refuses, on every flat schema and JSON object", () => {
    fc.assert(
      fc.property(flatSchema, jsonArgs, (schema, args) => {
        const check = flatObjectCheck(schema);
        expect(check).toBeDefined();
        if (check?.(args) === true) expect(oracle(schema, args)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("says what the general validator says when every argument is a scalar or null", () => {
    fc.assert(
      fc.property(flatSchema, scalarArgs, (schema, args) => {
        expect(flatObjectCheck(schema)?.(args)).toBe(oracle(schema, args));
      }),
      { numRuns: 2_000 },
    );
  });

  it("takes the schema an MCP server lists most, an object of scalars", () => {
    const check = flatObjectCheck({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] });
    expect([check?.({ a: 1, b: 2 }), check?.({ a: 1 }), check?.({ a: 1, b: "2" })]).toEqual([true, false, false]);
  });

  describe("when the schema holds anything else", () => {
    it.each([
      ["a constraint", { type: "object", properties: { a: { type: "number", minimum: 0 } } }],
      ["a nested object", { type: "object", properties: { a: { type: "object" } } }],
      ["a type union", { type: "object", properties: { a: { type: ["string", "null"] } } }],
      ["a default", { type: "object", properties: { a: { type: "string", default: "x" } } }],
      ["an additionalProperties schema", { type: "object", additionalProperties: { type: "string" } }],
      ["a top-level keyword", { type: "object", properties: {}, minProperties: 1 }],
      ["no object type", { properties: { a: { type: "string" } } }],
      ["a required name that is not a string", { type: "object", required: [1] }],
    ])("leaves %s to the general validator", (_what, schema) => {
      expect(flatObjectCheck(schema)).toBeUndefined();
    });
  });

  describe("when an argument is not JSON data", () => {
    it("leaves it to the general path, whose verdict stands", () => {
      const schema = { type: "object", properties: { a: { type: "number" } } } as const;
      const check = flatObjectCheck(schema);
      expect([check?.({ a: Number.NaN }), check?.({ a: 1, other: undefined }), check?.({ a: 1, other: () => 1 })]).toEqual([false, false, false]);
      const compiled = compileJsonSchema(schema, "t");
      const ok = (args: Record<string, unknown>) => (compiled.validate(args) as { ok: boolean }).ok;
      // Verdicts of the general path, as before the check: `undefined` is left out as JSON leaves it, and the validator's `number` takes Infinity.
      expect([ok({ a: 1, other: undefined }), ok({ a: Number.POSITIVE_INFINITY }), ok({ a: "1", other: undefined })]).toEqual([true, true, false]);
    });
  });
});
