import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkArguments, defineTool, ok, runToolCalls, type ToolSchema } from "../../src/index.js";
import { call } from "../support/helpers.js";

describe("optional fields named like Object.prototype members", () => {
  const kinds: [string, ToolSchema][] = [
    ["zod", z.object({ constructor: z.string().optional(), toString: z.string().optional(), valueOf: z.number().optional(), q: z.string() })],
    [
      "JSON Schema",
      {
        type: "object",
        properties: { constructor: { type: "string" }, toString: { type: "string" }, valueOf: { type: "number" }, q: { type: "string" } },
        required: ["q"],
      } as const,
    ],
    ["ArkType", type({ "constructor?": "string", "toString?": "string", "valueOf?": "number", q: "string" })],
    [
      "Valibot",
      toStandardJsonSchema(v.object({ constructor: v.optional(v.string()), toString: v.optional(v.string()), valueOf: v.optional(v.number()), q: v.string() })),
    ],
  ];

  it.each(kinds)("%s: a call that leaves them out is valid, and one that sends them is checked", async (_, schema) => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "find",
      description: "",
      schema: schema as never,
      handler: (args: Record<string, unknown>) => {
        seen.push(args);
        return ok("found");
      },
    });
    const { messages } = await runToolCalls(
      [call("c1", "find", { q: "rx" }), call("c2", "find", { q: "rx", constructor: "Map", valueOf: 2 }), call("c3", "find", { q: "rx", toString: 5 })],
      [tool],
    );
    expect(messages.map((m) => [m.isError, m.content.includes("toString")])).toEqual([
      [false, false],
      [false, false],
      [true, true],
    ]);
    expect(seen[1]).toMatchObject({ q: "rx", constructor: "Map", valueOf: 2 });
    // The handler still gets ordinary objects, whatever the validator was shown.
    for (const args of seen) expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it("zod: also in nested objects, and fields zod passes through come back ordinary", async () => {
    const schema = z.object({ opts: z.object({ hasOwnProperty: z.boolean().optional() }), meta: z.unknown() });
    let meta: unknown;
    const tool = defineTool({
      name: "n",
      description: "",
      schema,
      handler: (args) => {
        meta = args.meta;
        return ok("ok");
      },
    });
    const { messages } = await runToolCalls([call("c1", "n", { opts: {}, meta: { tag: { a: 1 } } })], [tool]);
    expect(messages[0]?.isError).toBe(false);
    expect(meta).toEqual({ tag: { a: 1 } });
    expect(Object.getPrototypeOf((meta as { tag: object }).tag)).toBe(Object.prototype);
  });
});

describe("a zod raw shape as the schema", () => {
  it("is refused with a TypeError saying to wrap it in z.object(...)", () => {
    const definition = { name: "weather", description: "", schema: { city: z.string(), days: z.number() } };
    expect(() => defineTool(definition as never)).toThrow(TypeError);
    expect(() => defineTool(definition as never)).toThrow(
      '`schema` of tool "weather" is a zod raw shape ({ city: ... }), not a schema: wrap it in `z.object(...)`',
    );
  });

  it("is refused the same way when only some values are schemas", () => {
    expect(() => defineTool({ name: "w", description: "", schema: { type: "object", city: z.string() } as never })).toThrow(/zod raw shape/);
  });

  it("from another library, is refused naming that library's object schema", () => {
    expect(() => defineTool({ name: "w", description: "", schema: { city: type("string") } as never })).toThrow(
      /is an object of schemas \(\{ city: \.\.\. \}\), not a schema: wrap it in your schema library's object schema/,
    );
  });
});

describe("a zod 3 schema", () => {
  it("is refused with a TypeError saying toolrx needs zod 4", () => {
    const zod3Like = { _def: { typeName: "ZodObject" }, parse: () => ({}), "~standard": { version: 1, vendor: "zod", validate: () => ({ value: {} }) } };
    expect(() => defineTool({ name: "w", description: "", schema: zod3Like as never })).toThrow(/zod 3 schema; toolrx needs zod 4/);
  });
});

describe("checkArguments", () => {
  const tool = defineTool({ name: "move", description: "", schema: z.object({ from: z.string(), to: z.string().default(".") }), manual: true });

  it("gives the schema's output, synchronously for a synchronous schema", () => {
    expect(checkArguments(tool, call("c1", "move", { from: "a" }))).toEqual({ ok: true, value: { from: "a", to: "." } });
  });

  it("gives the error the model would read, for bad arguments or bad provider JSON", () => {
    const bad = checkArguments(tool, call("c1", "move", {}));
    expect(bad).toMatchObject({ ok: false, error: { message: 'Invalid arguments for tool "move": from: Invalid input: expected string, received undefined' } });
    const broken = checkArguments(tool, { ...call("c2", "move", { from: "a" }), rawArguments: '{"from": "a"' });
    expect(broken).toMatchObject({ ok: false, error: { issues: [{ code: "invalid_json", path: [] }] } });
  });

  it("gives a promise when the schema checks asynchronously", async () => {
    const slow = defineTool({ name: "s", description: "", schema: z.object({ n: z.number().refine(async (n) => n > 0, "must be positive") }) });
    const checked = checkArguments(slow, call("c1", "s", { n: -1 }));
    expect(checked).toBeInstanceOf(Promise);
    expect(await checked).toMatchObject({ ok: false, error: { issues: [{ path: ["n"], message: "must be positive" }] } });
  });
});
