import { compileJsonSchema } from "./json-schema.js";
import { schemaTypeError } from "./schema-type-error.js";
import { compileStandardSchema, isStandardSchema } from "./standard-schema.js";
import type { CompiledSchema, JsonSchema } from "./types.js";
import { compileZodSchema, isZodSchema } from "./zod-schema.js";

/**
 * Prepare a tool's schema once: zod keeps its own parser, a Standard Schema its library's, and a
 * JSON Schema object gets a JSON Schema validator. Each also gives the JSON Schema a provider
 * receives. A schema toolrx cannot use fails here, where the tool is written, with a
 * `TypeError` that names the tool and says why.
 *
 * @example
 * compileSchema(z.object({ city: z.string() }), "weather").jsonSchema;
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }
 * compileSchema({ city: z.string() }, "weather");
 * // TypeError: `schema` of tool "weather" is a zod raw shape ({ city: ... }): wrap it in `z.object(...)`
 */
export function compileSchema(schema: unknown, toolName: string): CompiledSchema {
  const where = `\`schema\` of tool "${toolName}"`;
  if (isZodSchema(schema)) return objectSchema(compileZodSchema(schema, where), where);
  if (isZodV3(schema)) {
    throw schemaTypeError(where, 'is a zod 3 schema; toolrx needs zod 4 (`import { z } from "zod"` with zod 4, or "zod/v4")');
  }
  if (isStandardSchema(schema)) return objectSchema(compileStandardSchema(schema, where), where);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new TypeError(`Expected ${where} to be a zod schema, a Standard Schema or a JSON Schema object, got ${kind(schema)}`);
  }
  assertNotRawShape(schema, where);
  assertObjectType(schema as JsonSchema, where);
  return compileJsonSchema(schema as JsonSchema, where);
}

function isZodV3(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && "_def" in schema && typeof (schema as { parse?: unknown }).parse === "function";
}

/**
 * `{ city: z.string() }` is an object of schemas, not a schema: as JSON Schema it would accept
 * anything, and the provider would receive zod's internals.
 */
function assertNotRawShape(schema: object, where: string): void {
  const entries = Object.entries(schema);
  const shaped = entries.filter(([, value]) => isZodSchema(value) || isStandardSchema(value));
  if (shaped.length === 0) return;
  const sample = `{ ${shaped[0]?.[0]}: ... }`;
  if (shaped.some(([, value]) => isZodSchema(value))) {
    throw schemaTypeError(where, `is a zod raw shape (${sample}), not a schema: wrap it in \`z.object(...)\``);
  }
  throw schemaTypeError(where, `is an object of schemas (${sample}), not a schema: wrap it in your schema library's object schema`);
}

/** Tool arguments are an object: a schema whose root type cannot be one describes no call. */
function objectSchema(compiled: CompiledSchema, where: string): CompiledSchema {
  assertObjectType(compiled.jsonSchema, where);
  return compiled;
}

function assertObjectType(schema: JsonSchema, where: string): void {
  const type = schema.type;
  if (type === undefined || type === "object" || (Array.isArray(type) && type.includes("object"))) return;
  throw new TypeError(`Expected ${where} to describe an object (tool arguments are an object), got type ${JSON.stringify(type)}`);
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
