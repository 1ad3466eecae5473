import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type * as core from "zod/v4/core";
import type { ArgumentIssue } from "./invalid-arguments-error.js";

/** A zod v4 schema, from `zod` or `zod/mini`, from any copy of zod. */
export type ZodSchema = core.$ZodType;

/** A JSON Schema object (write it `as const` so handler arguments are inferred). */
export type JsonSchemaObject = Exclude<JSONSchema, boolean>;

/**
 * A schema implementing Standard Schema v1 together with the Standard JSON Schema interface
 * (`@standard-schema/spec` 1.1): ArkType, Valibot through `toStandardJsonSchema`, zod, and
 * others. The interfaces are restated here, as the spec invites, so users need no extra package.
 */
export interface StandardToolSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined },
    ) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> | undefined }) => Record<string, unknown>;
    };
  };
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

/** One problem a Standard Schema reports. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `defineTool` accepts as `schema`. */
export type ToolSchema = ZodSchema | StandardToolSchema | JsonSchemaObject;

/** The plain JSON Schema object a model provider receives. */
export type JsonSchema = Record<string, unknown>;

type ObjectLike<T> = unknown extends T ? Record<string, unknown> : T;

/**
 * The handler's argument type for a schema: zod's output type (defaults applied), a Standard
 * Schema's output type, or json-schema-to-ts's `FromSchema` for a JSON Schema literal.
 *
 * @example
 * type Args = InferArguments<typeof weatherSchema>; // { city: string; unit: "c" | "f" }
 */
export type InferArguments<S> = S extends ZodSchema
  ? core.output<S>
  : S extends StandardToolSchema
    ? ObjectLike<NonNullable<S["~standard"]["types"]>["output"]>
    : S extends JsonSchemaObject
      ? ObjectLike<FromSchema<S>>
      : Record<string, unknown>;

/** Outcome of checking arguments against a schema. */
export type Validation = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly issues: readonly ArgumentIssue[] };

/** A schema prepared once per tool: its validator and its provider-facing JSON Schema. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchema;
  validate(args: Record<string, unknown>): Validation | Promise<Validation>;
}
