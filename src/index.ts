export { defineTool, toolJsonSchema, type HandlerReturn, type Tool, type ToolDefinition, type ToolJSON } from "./tool.js";
export type { InferArguments, JsonSchema, JsonSchemaObject, ToolSchema, ZodSchema } from "./schema.js";
export type { ToolCall } from "./tool-call.js";
export {
  askUser,
  error,
  halt,
  isHandlerResult,
  ok,
  RESERVED_HALT_REASONS,
  type AskUser,
  type ErrorResult,
  type Halt,
  type HandlerResult,
  type Ok,
  type ReservedHaltReason,
} from "./results.js";
export { isToolError, ToolError, TOOL_ERROR_REASONS, type ToolErrorOptions, type ToolErrorReason } from "./tool-error.js";
export { EngineError, type EngineErrorReason } from "./engine-error.js";
export { InvalidArgumentsError, type ArgumentIssue } from "./invalid-arguments-error.js";
export { defaultExecutor, type HandlerContext, type ToolExecutor } from "./executor.js";
export { jsonEncoder, type ToolResultEncoder } from "./encoder.js";
export type { OnToolError, ToolErrorDecision } from "./policy.js";
export type { EngineLike, RunOptions } from "./options.js";
export {
  AWAITING_USER_RESPONSE,
  type AskUserRequested,
  type ToolEvent,
  type ToolEventBase,
  type ToolExecutionCompleted,
  type ToolExecutionStarted,
  type ToolHaltEvent,
  type ToolResultEncoded,
  type ToolTailEvent,
} from "./events.js";
export { RunResultCollector, type HaltMetadata, type RunResult, type ToolMessage } from "./run-result.js";
export { streamToolCalls } from "./stream.js";
export { runToolCalls } from "./batch.js";
export { isToolResolver, type ToolResolver } from "./resolver.js";
export { toolResolver, type ToolResolverOptions } from "./tool-resolver.js";
export { mergeResolvers } from "./merge-resolvers.js";
export {
  composeRecipeReport,
  type Recipe,
  type RecipePlan,
  type RecipeResults,
  type RecipeStep,
  type RecipeStepEvent,
  type ResolveAnswer,
} from "./recipe.js";
export { toAsyncIterable } from "./to-async-iterable.js";
