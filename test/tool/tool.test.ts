import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { defineTool, ok, toolJsonSchema, type Tool } from "../../src/index.js";

const base = { name: "weather", description: "Weather by city", schema: z.object({ city: z.string() }) };

describe("defineTool", () => {
  it("fills in the defaults: manual false, metadata {}", () => {
    const tool = defineTool(base);
    expect(tool).toMatchObject({ name: "weather", description: "Weather by city", manual: false, metadata: {} });
    expect(tool.handler).toBeUndefined();
  });

  it("keeps a handler, manual and metadata as given", () => {
    const handler = () => ok(1);
    const tool = defineTool({ ...base, handler, manual: true, metadata: { owner: "ops" } });
    expect(tool.handler).toBe(handler);
    expect(tool.manual).toBe(true);
    expect(tool.metadata).toEqual({ owner: "ops" });
  });

  it("allows an empty description", () => {
    expect(defineTool({ ...base, description: "" }).description).toBe("");
  });

  describe("when a field is missing or mistyped", () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["name missing", { ...base, name: undefined }, /`name`.*non-empty string.*undefined/],
      ["name empty", { ...base, name: "" }, /`name`.*non-empty string/],
      ["name not a string", { ...base, name: 42 }, /`name`.*got 42/],
      ["description missing", { ...base, description: undefined }, /`description` of tool "weather".*string/],
      ["schema missing", { ...base, schema: undefined }, /`schema` of tool "weather"/],
      ["manual null", { ...base, manual: null }, /`manual` of tool "weather" to be a boolean, got null/],
      ['manual "true"', { ...base, manual: "true" }, /`manual`.*boolean, got "true"/],
      ["handler not a function", { ...base, handler: "run" }, /`handler` of tool "weather" to be a function/],
      ["handler with 3 parameters", { ...base, handler: (_a: unknown, _b: unknown, _c: unknown) => ok(1) }, /at most 2 parameters.*got 3/],
      ["metadata an array", { ...base, metadata: [] }, /`metadata`.*object, got an array/],
      ["schema a string", { ...base, schema: "object" }, /`schema`.*zod schema, a Standard Schema or a JSON Schema object, got string/],
      ["schema not an object type", { ...base, schema: { type: "string" } }, /describe an object/],
      ["zod schema not an object", { ...base, schema: z.string() }, /describe an object/],
      ["Standard Schema without validate", { ...base, schema: { "~standard": { version: 1 } } }, /no `~standard.validate` function/],
    ];
    it.each(cases)("throws a TypeError: %s", (_, definition, message) => {
      expect(() => defineTool(definition as never)).toThrow(TypeError);
      expect(() => defineTool(definition as never)).toThrow(message);
    });

    it("throws a TypeError for a definition that is not an object", () => {
      expect(() => defineTool(null as never)).toThrow(TypeError);
    });

    it("throws a TypeError when a zod schema has no JSON Schema form", () => {
      expect(() => defineTool({ ...base, schema: z.object({ when: z.date() }) })).toThrow(/cannot be expressed as JSON Schema/);
    });
  });

  it("accepts manual: undefined as the default", () => {
    expect(defineTool({ ...base, manual: undefined }).manual).toBe(false);
  });

  it("accepts handlers of 0, 1 and 2 parameters", () => {
    expect(() => defineTool({ ...base, handler: () => ok(1) })).not.toThrow();
    expect(() => defineTool({ ...base, handler: (_args) => ok(1) })).not.toThrow();
    expect(() => defineTool({ ...base, handler: (_args, _ctx) => ok(1) })).not.toThrow();
  });

  it("gives a frozen tool: definitions cannot be changed behind the runner's back", () => {
    const tool = defineTool(base);
    expect(Object.isFrozen(tool)).toBe(true);
  });
});

describe("JSON.stringify(tool)", () => {
  it("gives name, description, schema as JSON Schema, manual and metadata, without the handler", () => {
    const tool = defineTool({ ...base, handler: () => ok(1), metadata: { v: 1 } });
    expect(JSON.parse(JSON.stringify(tool))).toEqual({
      name: "weather",
      description: "Weather by city",
      schema: {
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      },
      manual: false,
      metadata: { v: 1 },
    });
  });

  it("gives a JSON Schema as written", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;
    const tool = defineTool({ name: "n", description: "", schema });
    expect(JSON.parse(JSON.stringify(tool)).schema).toEqual(schema);
  });
});

describe("toolJsonSchema", () => {
  it("converts zod on the input side: fields with defaults are optional for the model", () => {
    const tool = defineTool({ ...base, schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }) });
    expect(toolJsonSchema(tool)).toEqual({
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"], default: "c" } },
      required: ["city"],
    });
  });

  it("works with zod/mini schemas", () => {
    const tool = defineTool({ ...base, schema: zm.object({ city: zm.string() }) });
    expect(toolJsonSchema(tool)).toMatchObject({ type: "object", required: ["city"] });
  });

  it("works for a tool written as a plain object, not through defineTool", () => {
    const tool: Tool = { name: "p", description: "", schema: { type: "object" }, manual: false, metadata: {} };
    expect(toolJsonSchema(tool)).toEqual({ type: "object" });
  });
});
