/**
 * Tool schemas: what `defineTool` accepts (zod, Standard Schema, JSON Schema), how each is
 * validated, and the JSON Schema a provider receives. The parts live in `schema/`, one per kind.
 */
export { compileSchema } from "./compile-schema.js";
export { isZodSchema } from "./zod-schema.js";
export { isStandardSchema } from "./standard-schema.js";
export type {
  CompiledSchema,
  InferArguments,
  JsonSchema,
  JsonSchemaObject,
  StandardIssue,
  StandardResult,
  StandardToolSchema,
  ToolSchema,
  Validation,
  ZodSchema,
} from "./types.js";
