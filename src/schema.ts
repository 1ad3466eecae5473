import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import { fromJSONSchema, toJSONSchema } from "zod";
import * as core from "zod/v4/core";
import type { ArgumentIssue } from "./invalid-arguments-error.js";

/** A zod v4 schema, from `zod` or `zod/mini`, from any copy of zod. */
export type ZodSchema = core.$ZodType;

/** A JSON Schema object (write it `as const` so handler arguments are inferred). */
export type JsonSchemaObject = Exclude<JSONSchema, boolean>;

/** What `defineTool` accepts as `schema`. */
export type ToolSchema = ZodSchema | JsonSchemaObject;

/** The plain JSON Schema object a model provider receives. */
export type JsonSchema = Record<string, unknown>;

type ObjectLike<T> = unknown extends T ? Record<string, unknown> : T;

/**
 * The handler's argument type for a schema: zod's output type (defaults applied), or
 * json-schema-to-ts's `FromSchema` for a JSON Schema literal.
 */
export type InferArguments<S> = S extends ZodSchema
  ? core.output<S>
  : S extends JsonSchemaObject
    ? ObjectLike<FromSchema<S>>
    : Record<string, unknown>;

/** Outcome of checking arguments against a schema. */
export type Validation =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly issues: readonly ArgumentIssue[] };

/** A schema prepared once per tool: its validator and its provider-facing JSON Schema. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchema;
  validate(args: Record<string, unknown>): Validation | Promise<Validation>;
}

/** Whether `schema` is a zod v4 schema; duck-typed so a user's own copy of zod works. */
export function isZodSchema(schema: unknown): schema is ZodSchema {
  return (
    typeof schema === "object" &&
    schema !== null &&
    typeof (schema as { _zod?: unknown })._zod === "object" &&
    (schema as { _zod: object | null })._zod !== null
  );
}

/**
 * Prepare a tool's schema: zod schemas are converted to JSON Schema (input side, so fields with
 * defaults stay optional for the model), JSON Schema objects are compiled to a zod validator.
 * Throws a `TypeError` that names the tool when the schema cannot serve as tool parameters.
 */
export function compileSchema(schema: unknown, toolName: string): CompiledSchema {
  const where = `\`schema\` of tool "${toolName}"`;
  if (isZodSchema(schema)) {
    let jsonSchema: JsonSchema;
    try {
      const { $schema: _draft, ...rest } = toJSONSchema(schema, { io: "input" }) as JsonSchema;
      jsonSchema = rest;
    } catch (cause) {
      throw new TypeError(`${where} cannot be expressed as JSON Schema: ${messageOf(cause)}`, { cause });
    }
    assertObjectSchema(jsonSchema, where);
    return { jsonSchema, validate: (args) => validateWith(schema, args) };
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new TypeError(`Expected ${where} to be a zod schema or a JSON Schema object, got ${kind(schema)}`);
  }
  if ("~standard" in schema || "_def" in schema) {
    throw new TypeError(
      `Expected ${where} to be a zod v4 schema or a JSON Schema object; this looks like another schema library (or zod v3)`,
    );
  }
  assertObjectSchema(schema as JsonSchema, where);
  let validator: ZodSchema;
  try {
    validator = fromJSONSchema(schema as Parameters<typeof fromJSONSchema>[0]);
  } catch (cause) {
    throw new TypeError(`${where} is not a JSON Schema toolrx can validate: ${messageOf(cause)}`, { cause });
  }
  return { jsonSchema: schema as JsonSchema, validate: (args) => validateWith(validator, args) };
}

function validateWith(schema: ZodSchema, args: Record<string, unknown>): Validation | Promise<Validation> {
  try {
    return toValidation(core.safeParse(schema, args));
  } catch (e) {
    // Async refinements cannot run synchronously; only then pay for a promise.
    if (isZodAsyncError(e)) return core.safeParseAsync(schema, args).then(toValidation);
    throw e;
  }
}

/**
 * Whether zod refused to parse synchronously. A schema from the user's own copy of zod throws
 * that copy's `$ZodAsyncError`, which is not an instance of ours; it has no name of its own, so
 * it is known by its class name or its fixed message.
 */
function isZodAsyncError(e: unknown): boolean {
  return (
    e instanceof core.$ZodAsyncError ||
    (e instanceof Error &&
      (e.constructor.name === "$ZodAsyncError" || e.message.startsWith("Encountered Promise during synchronous parse")))
  );
}

function toValidation(result: core.util.SafeParseResult<unknown>): Validation {
  if (result.success) {
    const value = result.data;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { ok: true, value: value as Record<string, unknown> };
    }
    return { ok: false, issues: [{ code: "invalid_type", path: [], message: "schema output is not an object" }] };
  }
  return {
    ok: false,
    issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })),
  };
}

function assertObjectSchema(schema: JsonSchema, where: string): void {
  const type = schema.type;
  if (type !== undefined && type !== "object") {
    throw new TypeError(
      `Expected ${where} to describe an object (tool arguments are an object), got type ${JSON.stringify(type)}`,
    );
  }
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
