import { describe, expect, it, vi } from "vitest";
import { defineTool, InvalidArgumentsError, ok, runToolCalls, toolJsonSchema, type ArgumentIssue } from "../../src/index.js";
import { call } from "../support/helpers.js";

/** Run one call through a tool with `schema`; what the handler saw, or the issues the model was told. */
async function check(schema: object, args: Record<string, unknown>) {
  const handler = vi.fn((a: Record<string, unknown>) => ok(a));
  const tool = defineTool({ name: "t", description: "", schema, handler } as never);
  let reason: unknown;
  await runToolCalls([call("c1", "t", args)], [tool], {
    onToolError: (_c, e) => {
      reason = e;
      return { continue: null };
    },
  });
  return { handled: handler.mock.calls[0]?.[0], issues: reason instanceof InvalidArgumentsError ? reason.issues : undefined, reason };
}

const valid = async (schema: object, args: Record<string, unknown>) => (await check(schema, args)).issues === undefined;

describe("JSON Schema validation", () => {
  describe("keywords a converter to zod used to miss", () => {
    it("checks `required` and `properties` without `type: object`", async () => {
      const schema = { properties: { city: { type: "string" } }, required: ["city"] } as const;
      expect(await check(schema, {})).toMatchObject({
        handled: undefined,
        issues: [{ code: "invalid_type", path: ["city"], message: "Invalid input: expected string, received undefined" }],
      });
      expect(await valid(schema, { city: "Oslo" })).toBe(true);
    });

    it("checks every branch of `allOf`", async () => {
      const schema = { type: "object", allOf: [{ required: ["a"] }, { properties: { b: { type: "integer" } } }] } as const;
      expect(await valid(schema, { a: 1, b: 2 })).toBe(true);
      expect(await valid(schema, { a: 1, b: "2" })).toBe(false);
      expect(await valid(schema, { b: 2 })).toBe(false);
    });

    it("follows `$ref` to `$defs`, and names the nested field", async () => {
      const schema = {
        type: "object",
        properties: { home: { $ref: "#/$defs/address" } },
        $defs: { address: { type: "object", properties: { zip: { type: "string", pattern: "^[0-9]{5}$" } }, required: ["zip"] } },
      } as const;
      expect(await valid(schema, { home: { zip: "75001" } })).toBe(true);
      expect((await check(schema, { home: { zip: "7500" } })).issues).toEqual([
        { code: "invalid_format", path: ["home", "zip"], message: "Invalid string: must match pattern /^[0-9]{5}$/" },
      ]);
    });

    it("checks `dependentRequired`, `not`, `if`/`then`/`else` and `unevaluatedProperties`", async () => {
      const card = { type: "object", dependentRequired: { card: ["cvc"] } } as const;
      expect((await check(card, { card: "4111" })).issues?.[0]).toMatchObject({ path: ["cvc"] });
      expect(await valid({ not: { required: ["admin"] } }, { admin: true })).toBe(false);
      const ifThen = {
        if: { properties: { unit: { const: "f" } } },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here, not a thenable
        then: { properties: { t: { maximum: 200 } } },
        else: { properties: { t: { maximum: 100 } } },
      } as const;
      expect(await valid(ifThen, { unit: "f", t: 150 })).toBe(true);
      expect(await valid(ifThen, { unit: "c", t: 150 })).toBe(false);
      const closed = { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false } as const;
      expect(await valid(closed, { a: 1 })).toBe(true);
      expect((await check(closed, { a: 1, b: 2 })).issues).toEqual([{ code: "unrecognized_keys", path: ["b"], message: 'Unrecognized key: "b"' }]);
    });
  });

  describe("the dialect, by `$schema`", () => {
    // In draft-07 a `$ref` hides its siblings; from 2019-09 on they apply too.
    const refWithSibling = { $defs: { any: {} }, definitions: { any: {} }, properties: { n: { $ref: "#/definitions/any", maximum: 1 } } };

    it("is 2020-12 when absent", async () => {
      expect(await valid(refWithSibling, { n: 5 })).toBe(false);
    });

    it("follows 2019-09 and draft-04 too, and 2020-12 for a dialect it does not know (OpenAPI 3.1's)", async () => {
      const exclusive4 = { $schema: "http://json-schema.org/draft-04/schema#", properties: { n: { minimum: 1, exclusiveMinimum: true } } };
      expect(await valid(exclusive4, { n: 1 })).toBe(false);
      expect(await valid(exclusive4, { n: 2 })).toBe(true);
      const recursive = { $schema: "https://json-schema.org/draft/2019-09/schema", properties: { n: { $ref: "#/$defs/any", maximum: 1 } }, $defs: { any: {} } };
      expect(await valid(recursive, { n: 5 })).toBe(false);
      const openapi = { $schema: "https://spec.openapis.org/oas/3.1/dialect/base", ...refWithSibling };
      expect(await valid(openapi, { n: 5 })).toBe(false);
    });

    it("follows draft-07 when the schema says so", async () => {
      const draft7 = { $schema: "http://json-schema.org/draft-07/schema#", ...refWithSibling };
      expect(await valid(draft7, { n: 5 })).toBe(true);
    });
  });

  describe("the text the model reads", () => {
    it("names each field and what was expected, in zod's words", async () => {
      const schema = {
        type: "object",
        properties: {
          n: { type: "integer", minimum: 0 },
          unit: { enum: ["c", "f"] },
          tags: { type: "array", items: { type: "string" }, maxItems: 2 },
          name: { type: "string", minLength: 2 },
        },
        additionalProperties: false,
      } as const;
      const { issues, reason } = await check(schema, { n: -1, unit: "k", tags: ["a", 2, "c"], name: "x", extra: true });
      expect(issues).toEqual<ArgumentIssue[]>([
        { code: "too_small", path: ["n"], message: "Too small: expected number to be >=0" },
        { code: "invalid_value", path: ["unit"], message: 'Invalid option: expected one of "c"|"f"' },
        { code: "too_big", path: ["tags"], message: "Too big: expected array to have <=2 items" },
        { code: "invalid_type", path: ["tags", 1], message: "Invalid input: expected string, received number" },
        { code: "too_small", path: ["name"], message: "Too small: expected string to have >=2 characters" },
        { code: "unrecognized_keys", path: ["extra"], message: 'Unrecognized key: "extra"' },
      ]);
      expect((reason as Error).message).toMatch(/^Invalid arguments for tool "t": n: Too small: expected number to be >=0; unit: /);
    });

    it.each<[string, object, Record<string, unknown>, ArgumentIssue]>([
      [
        "exclusive bounds",
        { properties: { t: { exclusiveMinimum: 0, exclusiveMaximum: 10 } } },
        { t: 10 },
        { code: "too_big", path: ["t"], message: "Too big: expected number to be <10" },
      ],
      [
        "multipleOf",
        { properties: { q: { multipleOf: 5 } } },
        { q: 7 },
        { code: "not_multiple_of", path: ["q"], message: "Invalid number: must be a multiple of 5" },
      ],
      ["const", { properties: { v: { const: 2 } } }, { v: 1 }, { code: "invalid_value", path: ["v"], message: "Invalid input: expected 2" }],
      [
        "format",
        { properties: { at: { type: "string", format: "date-time" } } },
        { at: "tomorrow" },
        { code: "invalid_format", path: ["at"], message: 'Invalid string: expected format "date-time"' },
      ],
      ["minProperties", { minProperties: 1 }, {}, { code: "too_small", path: [], message: "Too small: expected object to have >=1 properties" }],
      [
        "propertyNames",
        { propertyNames: { pattern: "^[a-z]+$" } },
        { Bad: 1 },
        { code: "invalid_key", path: ["Bad"], message: 'Invalid key: "Bad" is not an allowed property name' },
      ],
      [
        "oneOf matching twice",
        { properties: { n: { oneOf: [{ type: "integer" }, { minimum: 0 }] } } },
        { n: 3 },
        { code: "invalid_union", path: ["n"], message: "Invalid input: matches more than one of the shapes, exactly one is allowed" },
      ],
      [
        "not",
        { properties: { s: { not: { type: "string" } } } },
        { s: "x" },
        { code: "custom", path: ["s"], message: "Invalid input: matches a shape the schema forbids" },
      ],
      [
        "a key in a JSON pointer's escapes",
        { properties: { "a/b~c": { type: "string" } } },
        { "a/b~c": 1 },
        { code: "invalid_type", path: ["a/b~c"], message: "Invalid input: expected string, received number" },
      ],
      [
        "a required field behind a $ref",
        { properties: { to: { $ref: "#/$defs/addr" } }, $defs: { addr: { properties: { zip: { type: "string" } }, required: ["zip"] } } },
        { to: {} },
        { code: "invalid_type", path: ["to", "zip"], message: "Invalid input: expected string, received undefined" },
      ],
    ])("words %s as zod would", async (_, schema, args, issue) => {
      expect((await check(schema, args)).issues).toEqual([issue]);
    });

    it("says a union matched none of its shapes once, not once per branch", async () => {
      const schema = { properties: { id: { anyOf: [{ type: "string" }, { type: "integer" }] } } } as const;
      expect((await check(schema, { id: 1.5 })).issues).toEqual([
        { code: "invalid_union", path: ["id"], message: "Invalid input: matches none of the allowed shapes" },
      ]);
    });
  });

  describe("what the handler receives", () => {
    it("is the arguments, with the schema's property defaults filled in", async () => {
      const schema = {
        type: "object",
        properties: { unit: { type: "string", default: "c" }, opts: { type: "object", properties: { days: { type: "integer", default: 3 } } } },
      } as const;
      const args = { opts: {} };
      expect((await check(schema, args)).handled).toEqual({ unit: "c", opts: { days: 3 } });
      expect(args).toEqual({ opts: {} });
    });

    it("judges arguments built in code as the JSON they would be sent as", async () => {
      const schema = { properties: { city: { type: "string" }, unit: { type: "string" } }, required: ["city"] } as const;
      const { handled } = await check(schema, { city: "Oslo", unit: undefined });
      expect(handled).toEqual({ city: "Oslo", unit: undefined });
      expect((await check(schema, { city: 10n })).issues?.[0]?.message).toMatch(/not JSON data.*BigInt/);
    });
  });

  describe("the schema itself", () => {
    it("is left as written, and is what the provider receives", () => {
      const schema = { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } } as const;
      const before = JSON.stringify(schema);
      const tool = defineTool({ name: "t", description: "", schema });
      expect(toolJsonSchema(tool)).toBe(schema);
      expect(JSON.stringify(schema)).toBe(before);
      expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(["$ref"]);
    });

    it("works when frozen", async () => {
      const schema = Object.freeze({ type: "object", properties: Object.freeze({ a: Object.freeze({ type: "string" }) }) } as const);
      expect(await valid(schema, { a: 1 })).toBe(false);
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      [
        "a remote $ref",
        { properties: { a: { $ref: "https://example.com/a.json" } } },
        /`\$ref` toolrx cannot resolve: "https:\/\/example.com\/a.json".*\$defs/,
      ],
      ["a $ref to a missing definition", { properties: { a: { $ref: "#/$defs/nope" } } }, /cannot resolve: "#\/\$defs\/nope"/],
      ["an invalid pattern", { properties: { a: { type: "string", pattern: "([" } } }, /`pattern` that is not a valid regular expression: "\(\["/],
      ["a $schema that is not a string", { $schema: 7 }, /`\$schema` that is not a string/],
      ["a root type that is not object", { type: ["string", "null"] }, /describe an object.*got type \["string","null"\]/],
      [
        "a cycle",
        (() => {
          const s: Record<string, unknown> = {};
          s.self = s;
          return s;
        })(),
        /is not JSON data/,
      ],
    ])("refuses %s in defineTool with a TypeError", (_, schema, message) => {
      expect(() => defineTool({ name: "t", description: "", schema } as never)).toThrow(TypeError);
      expect(() => defineTool({ name: "t", description: "", schema } as never)).toThrow(message);
    });

    it("accepts a root type that allows an object", () => {
      expect(() => defineTool({ name: "t", description: "", schema: { type: ["object", "null"] } as const })).not.toThrow();
    });
  });
});
