export { defineTool, toolJsonSchema, type HandlerReturn, type Tool, type ToolDefinition, type ToolJSON } from "./tool.js";
export type { InferArguments, JsonSchema, JsonSchemaObject, StandardToolSchema, ToolSchema, ZodSchema } from "./schema.js";
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
export { checkArguments, type CheckedArguments } from "./check-arguments.js";
export { defaultExecutor, type HandlerContext, type ToolExecutor } from "./executor.js";
export { jsonEncoder, type ToolResultEncoder } from "./encoder.js";
export type { OnToolError, ToolErrorDecision } from "./policy.js";
export type { CallCancellation, EngineLike, RunOptions } from "./options.js";
export { CallCancelledError } from "./call-cancelled-error.js";
export type {
  AttemptFailedReport,
  CallReport,
  CallReportBase,
  LateSettlementReport,
  ProgressReport,
  ProgressUpdate,
  RecipeStepFields,
  RecipeStepReport,
} from "./run/call-report.js";
export type { RetryPolicy, RetryableReason } from "./run/retry.js";
export type { ToolControl } from "./run/tool-control.js";
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
export {
  RunResultCollector,
  type AskUserHalt,
  type HaltMetadata,
  type HandlerHalt,
  type RunResult,
  type ToolErrorHalt,
  type ToolMessage,
} from "./run-result.js";
export { streamToolCalls } from "./run/stream.js";
export { runToolCalls } from "./run/batch.js";
export { isToolResolver, type ToolResolver } from "./resolver.js";
export { toolResolver, type ToolResolverOptions } from "./tool-resolver.js";
export { mergeResolvers } from "./merge-resolvers.js";
export {
  composeRecipeReport,
  type Recipe,
  type RecipePlan,
  type RecipeResults,
  type RecipeStep,
  type ResolveAnswer,
} from "./recipe.js";
export { executeToolCalls } from "./execute-tool-calls.js";
export { streamAgent } from "./agent/stream-agent.js";
export { runAgent } from "./agent/run-agent.js";
export { ModelEventError } from "./agent/model-event-error.js";
export type { ApprovalContext, NeedsApproval, PendingApproval } from "./agent/approval.js";
export type {
  AgentEvent,
  AgentOptions,
  AgentResult,
  ApprovalMessage,
  AssistantMessage,
  FinishReason,
  Message,
  Model,
  ModelEvent,
  ModelRequest,
  TextMessage,
  TurnResult,
} from "./agent/types.js";
export { toAsyncIterable } from "./to-async-iterable.js";
