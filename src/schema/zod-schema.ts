import { toJSONSchema } from "zod";
import * as core from "zod/v4/core";
import { bareCopy, namesInheritedProperty, plainCopy } from "./bare-copy.js";
import { objectOutput } from "./object-output.js";
import { hasAsyncCallback } from "./zod-async.js";
import { schemaTypeError } from "./schema-type-error.js";
import type { CompiledSchema, JsonSchema, Validation, ZodSchema } from "./types.js";

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
 * Prepare a zod schema. zod keeps its own parser (its fast path), and is converted to JSON Schema
 * on the input side, so fields with defaults stay optional for the model.
 *
 * @throws {TypeError} when the schema has no JSON Schema form (a `z.date()`, say).
 */
export function compileZodSchema(schema: ZodSchema, where: string): CompiledSchema {
  let jsonSchema: JsonSchema;
  try {
    const { $schema: _dialect, ...rest } = toJSONSchema(schema, { io: "input" }) as JsonSchema;
    jsonSchema = rest;
  } catch (cause) {
    throw schemaTypeError(where, "cannot be expressed as JSON Schema", cause);
  }
  const parse = zodParser(schema);
  if (!namesInheritedProperty(jsonSchema)) return { jsonSchema, validate: parse };
  return {
    jsonSchema,
    validate(args) {
      const validation = parse(bareCopy(args));
      return validation instanceof Promise ? validation.then(restored) : restored(validation);
    },
  };
}

/** Fields zod passes through (`z.unknown()`, `.loose()`) come back as the prototype-less copy's. */
function restored(validation: Validation): Validation {
  return validation.ok ? { ok: true, value: plainCopy(validation.value) as Record<string, unknown> } : validation;
}

/**
 * Synchronous parsing while the schema allows it: a promise per call only for schemas that need
 * one. A schema with a callback declared `async` is parsed asynchronously from the start; one
 * whose callback merely returns a promise is found out by zod's refusal on the first call, and
 * parsed asynchronously from then on, so its callback runs once per call, not twice.
 */
function zodParser(schema: ZodSchema): (args: unknown) => Validation | Promise<Validation> {
  let async = hasAsyncCallback(schema);
  return (args) => {
    if (async) return core.safeParseAsync(schema, args).then(toValidation);
    try {
      return toValidation(core.safeParse(schema, args));
    } catch (e) {
      if (!isZodAsyncError(e)) throw e;
      async = true;
      return core.safeParseAsync(schema, args).then(toValidation);
    }
  };
}

/**
 * Whether zod refused to parse synchronously. A schema from the user's own copy of zod throws
 * that copy's `$ZodAsyncError`, which is not an instance of ours; it has no name of its own, so
 * it is known by its class name or its fixed message.
 */
function isZodAsyncError(e: unknown): boolean {
  return (
    e instanceof core.$ZodAsyncError ||
    (e instanceof Error && (e.constructor.name === "$ZodAsyncError" || e.message.startsWith("Encountered Promise during synchronous parse")))
  );
}

function toValidation(result: core.util.SafeParseResult<unknown>): Validation {
  if (result.success) return objectOutput(result.data);
  return { ok: false, issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })) };
}
