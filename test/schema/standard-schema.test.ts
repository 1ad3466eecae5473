import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { defineTool, InvalidArgumentsError, ok, runToolCalls, toolJsonSchema, type StandardToolSchema } from "../../src/index.js";
import { openai } from "../../src/providers/index.js";
import { call } from "../support/helpers.js";

describe("defineTool with a Standard Schema", () => {
  describe("from ArkType", () => {
    const schema = type({ city: "string", "days?": "1 <= number.integer <= 14" });

    it("runs end to end: the library validates, the handler gets its output", async () => {
      const handler = vi.fn(({ city, days }: { city: string; days?: number }) => ok(`${city} for ${days ?? 1} days`));
      const tool = defineTool({ name: "forecast", description: "", schema, handler });
      const { messages } = await runToolCalls([call("c1", "forecast", { city: "Oslo", days: 3 }), call("c2", "forecast", { city: 1, days: 0 })], [tool]);
      expect(messages.map((m) => m.content)).toEqual([
        "Oslo for 3 days",
        '{"error":"Invalid arguments for tool \\"forecast\\": city: must be a string (was a number); days: must be at least 1 (was 0)"}',
      ]);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it("gives the provider the library's JSON Schema, without `$schema`", () => {
      const tool = defineTool({ name: "forecast", description: "", schema });
      expect(toolJsonSchema(tool)).toEqual({
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 14 } },
        required: ["city"],
      });
      expect(openai.toTools([tool])[0]?.function.parameters).toEqual(toolJsonSchema(tool));
      expect(JSON.parse(JSON.stringify(tool))).toEqual({ name: "forecast", description: "", schema: toolJsonSchema(tool), manual: false, metadata: {} });
    });

    it("hands the handler the library's output, morphs applied", async () => {
      const trimmed = type({ q: type("string").pipe((s) => s.trim()) });
      const handler = vi.fn((args: { q: string }) => ok(args.q));
      await runToolCalls([call("c1", "s", { q: "  rx " })], [defineTool({ name: "s", description: "", schema: trimmed, handler })]);
      expect(handler.mock.calls[0]?.[0]).toEqual({ q: "rx" });
    });
  });

  describe("from Valibot, through toStandardJsonSchema", () => {
    const schema = toStandardJsonSchema(v.object({ city: v.string(), unit: v.optional(v.picklist(["c", "f"]), "c") }));

    it("runs end to end, with the issues' paths and zod's shape", async () => {
      const handler = vi.fn((args: { city: string; unit: "c" | "f" }) => ok(args));
      const tool = defineTool({ name: "weather", description: "", schema, handler });
      let reason: unknown;
      const { messages } = await runToolCalls([call("c1", "weather", { city: "Oslo" }), call("c2", "weather", { unit: "k" })], [tool], {
        onToolError: (_c, e) => {
          reason = e;
          return { continue: "see reason" };
        },
      });
      expect(handler.mock.calls[0]?.[0]).toEqual({ city: "Oslo", unit: "c" });
      expect(messages[0]?.content).toBe('{"city":"Oslo","unit":"c"}');
      expect(reason).toBeInstanceOf(InvalidArgumentsError);
      expect((reason as InvalidArgumentsError).issues).toEqual([
        { code: "custom", path: ["city"], message: 'Invalid key: Expected "city" but received undefined' },
        { code: "custom", path: ["unit"], message: 'Invalid type: Expected ("c" | "f") but received "k"' },
      ]);
    });

    it("gives the provider the library's JSON Schema", () => {
      expect(toolJsonSchema(defineTool({ name: "weather", description: "", schema }))).toEqual({
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"], default: "c" } },
        required: ["city"],
      });
    });

    it("refuses a bare Valibot schema, saying to wrap it", () => {
      const bare = v.object({ city: v.string() });
      expect(() => defineTool({ name: "weather", description: "", schema: bare as never })).toThrow(TypeError);
      expect(() => defineTool({ name: "weather", description: "", schema: bare as never })).toThrow(
        /`schema` of tool "weather" implements Standard Schema but not Standard JSON Schema.*toStandardJsonSchema/,
      );
    });
  });

  describe("written by hand against the spec", () => {
    function standard(
      validate: StandardToolSchema["~standard"]["validate"],
      jsonSchema: () => Record<string, unknown> = () => ({ type: "object" }),
    ): StandardToolSchema {
      return { "~standard": { version: 1, vendor: "hand", validate, jsonSchema: { input: jsonSchema } } };
    }

    it("may validate asynchronously", async () => {
      const schema = standard(async (value) =>
        (value as { n?: unknown }).n === 1 ? { value: { n: 1 } } : { issues: [{ message: "n must be 1", path: [{ key: "n" }] }] },
      );
      const tool = defineTool({ name: "a", description: "", schema, handler: (args) => ok(args) });
      const { messages } = await runToolCalls([call("c1", "a", { n: 1 }), call("c2", "a", { n: 2 })], [tool]);
      // The path leads the text, so a message that starts with it does not say it twice.
      expect(messages.map((m) => m.content)).toEqual(['{"n":1}', '{"error":"Invalid arguments for tool \\"a\\": n: must be 1"}']);
    });

    it("fails a call whose output is not an object", async () => {
      const tool = defineTool({ name: "a", description: "", schema: standard(() => ({ value: "text" })), handler: () => ok(1) });
      const { messages } = await runToolCalls([call("c1", "a")], [tool]);
      expect(messages[0]?.content).toBe('{"error":"Invalid arguments for tool \\"a\\": schema output is not an object"}');
    });

    it.each<[string, unknown, RegExp]>([
      [
        "an unknown version",
        { "~standard": { version: 2, vendor: "x", validate: () => ({ value: {} }) } },
        /Standard Schema version 2; toolrx knows version 1/,
      ],
      [
        "a JSON Schema converter that throws",
        standard(
          () => ({ value: {} }),
          () => {
            throw new Error("no JSON for Date");
          },
        ),
        /cannot be expressed as JSON Schema: no JSON for Date/,
      ],
      [
        "a JSON Schema that is not an object",
        standard(
          () => ({ value: {} }),
          () => ({ type: "string" }),
        ),
        /describe an object.*got type "string"/,
      ],
    ])("refuses %s with a TypeError", (_, schema, message) => {
      expect(() => defineTool({ name: "a", description: "", schema: schema as never })).toThrow(TypeError);
      expect(() => defineTool({ name: "a", description: "", schema: schema as never })).toThrow(message);
    });
  });
});
