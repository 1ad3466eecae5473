import type { ArgumentIssue } from "./invalid-arguments-error.js";
import { bareCopy, namesInheritedProperty, plainCopy } from "./bare-copy.js";
import { objectOutput } from "./object-output.js";
import { schemaTypeError } from "./schema-type-error.js";
import type { CompiledSchema, JsonSchema, StandardIssue, StandardResult, StandardToolSchema, Validation } from "./types.js";

type StandardProps = { readonly version?: unknown; readonly validate?: unknown; readonly jsonSchema?: { readonly input?: unknown } };

/** Whether `schema` claims Standard Schema v1 (`~standard`); ArkType's schemas are functions. */
export function isStandardSchema(schema: unknown): schema is { readonly "~standard": StandardProps } {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return false;
  const props = (schema as { "~standard"?: unknown })["~standard"];
  return typeof props === "object" && props !== null;
}

/**
 * Prepare a Standard Schema. The library validates (its own output, transforms included, is what
 * the handler receives); its Standard JSON Schema converter gives the provider's JSON Schema.
 *
 * @throws {TypeError} when the schema is not Standard Schema v1, has no `~standard.jsonSchema`
 * (Valibot needs `toStandardJsonSchema` from `@valibot/to-json-schema`), or cannot be converted.
 */
export function compileStandardSchema(schema: { readonly "~standard": StandardProps }, where: string): CompiledSchema {
  const props = schema["~standard"];
  if (props.version !== 1) {
    throw schemaTypeError(where, `implements Standard Schema version ${String(props.version)}; toolrx knows version 1`);
  }
  if (typeof props.validate !== "function") {
    throw schemaTypeError(where, "claims Standard Schema but has no `~standard.validate` function");
  }
  if (typeof props.jsonSchema?.input !== "function") {
    throw schemaTypeError(
      where,
      "implements Standard Schema but not Standard JSON Schema (`~standard.jsonSchema`), so toolrx cannot tell the model its parameters; " +
        "for Valibot, wrap the schema in `toStandardJsonSchema(...)` from @valibot/to-json-schema",
    );
  }
  const standard = (schema as StandardToolSchema)["~standard"];
  let jsonSchema: JsonSchema;
  try {
    const { $schema: _dialect, ...rest } = standard.jsonSchema.input({ target: "draft-2020-12" });
    jsonSchema = rest;
  } catch (cause) {
    throw schemaTypeError(where, "cannot be expressed as JSON Schema", cause);
  }
  const bare = namesInheritedProperty(jsonSchema);
  return {
    jsonSchema,
    validate(args) {
      const result = standard.validate(bare ? bareCopy(args) : args);
      const done = bare ? (r: StandardResult<unknown>) => restored(toValidation(r)) : toValidation;
      // A library's own promise type, or one from another realm, is still a thenable.
      return typeof (result as Partial<PromiseLike<unknown>>).then === "function"
        ? Promise.resolve(result).then(done)
        : done(result as StandardResult<unknown>);
    },
  };
}

function restored(validation: Validation): Validation {
  return validation.ok ? { ok: true, value: plainCopy(validation.value) as Record<string, unknown> } : validation;
}

function toValidation(result: StandardResult<unknown>): Validation {
  if (result.issues === undefined) return objectOutput(result.value);
  return { ok: false, issues: result.issues.map(toIssue) };
}

/**
 * A Standard Schema issue in zod's shape. The spec has no issue code, so the library's own
 * `code` is kept when it has one. A message that already starts with the field's path (ArkType:
 * "city must be a string") loses that prefix, since the path is printed before it.
 */
function toIssue(issue: StandardIssue): ArgumentIssue {
  // Array.from, not .map: a library's own array subclass (ArkType's, with an enumerable `cache`)
  // would map to another instance of itself, and the promise is zod's plain array.
  const path = Array.from(issue.path ?? [], (segment) => (typeof segment === "object" && segment !== null ? segment.key : segment));
  const own = (issue as { code?: unknown }).code;
  const code = typeof own === "string" ? own : "custom";
  const prefix = `${path.map(String).join(".")} `;
  const message = path.length > 0 && issue.message.startsWith(prefix) ? issue.message.slice(prefix.length) : issue.message;
  return { code, path, message };
}
