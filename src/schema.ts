/**
 * Tool schemas: what `defineTool` accepts (zod, Standard Schema, JSON Schema), how each is
 * validated, and the JSON Schema a provider receives. The parts live in `schema/`, one per kind.
 */
export { compileSchema } from "./schema/compile-schema.js";
export { isZodSchema } from "./schema/zod-schema.js";
export { isStandardSchema } from "./schema/standard-schema.js";
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
} from "./schema/types.js";
