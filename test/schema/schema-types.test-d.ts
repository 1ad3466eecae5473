import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { defineTool, ok, type InferArguments, type StandardToolSchema, type Tool } from "../../src/index.js";

test("handler arguments from an ArkType schema are its output type", () => {
  const tool = defineTool({
    name: "forecast",
    description: "",
    schema: type({ city: "string", "days?": "number.integer", when: type("string").pipe((s) => s.length) }),
    handler: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number; when: number }>();
      return ok(args.city);
    },
  });
  expectTypeOf(tool).toEqualTypeOf<Tool<{ city: string; days?: number; when: number }>>();
});

test("handler arguments from a Valibot schema are its output type, defaults applied", () => {
  defineTool({
    name: "weather",
    description: "",
    schema: toStandardJsonSchema(v.object({ city: v.string(), unit: v.optional(v.picklist(["c", "f"]), "c") })),
    handler: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; unit: "c" | "f" }>();
      return ok(args.unit);
    },
  });
});

test("zod keeps zod's own output type (its fast path), not the Standard Schema one", () => {
  const schema = z.object({ n: z.string().transform((s) => s.length) });
  expectTypeOf<InferArguments<typeof schema>>().toEqualTypeOf<{ n: number }>();
});

test("any schema implementing the spec's two interfaces is a tool schema", () => {
  type Both = StandardSchemaV1<{ a: string }> & StandardJSONSchemaV1<{ a: string }>;
  expectTypeOf<Both>().toMatchTypeOf<StandardToolSchema>();
  expectTypeOf<InferArguments<Both>>().toEqualTypeOf<{ a: string }>();
});
