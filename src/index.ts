export { defineTool, toolJsonSchema, type HandlerReturn, type Tool, type ToolDefinition, type ToolJSON } from "./tool/tool.js";
export type { InferArguments, JsonSchema, JsonSchemaObject, StandardToolSchema, ToolSchema, ZodSchema } from "./schema/tool-schema.js";
export type { ToolCall } from "./tool/tool-call.js";
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
  type OkOptions,
  type ReservedHaltReason,
} from "./tool/results.js";
export {
  checkParts,
  partMarker,
  type ContentPart,
  type FilePart,
  type ImagePart,
  type AudioPart,
  type ResourcePart,
  type TextPart,
} from "./tool/content-part.js";
export { isToolError, ToolError, TOOL_ERROR_REASONS, type ToolErrorOptions, type ToolErrorReason } from "./tool/tool-error.js";
export { EngineError, type EngineErrorReason } from "./tool/engine-error.js";
export { InvalidArgumentsError, type ArgumentIssue } from "./schema/invalid-arguments-error.js";
export { checkArguments, type CheckedArguments } from "./tool/check-arguments.js";
export { defaultExecutor, type ToolExecutor } from "./tool/executor.js";
export type { HandlerContext } from "./tool/handler-context.js";
export { jsonEncoder, type ToolResultEncoder } from "./tool/encoder.js";
export type { OnToolError, ToolErrorDecision } from "./run/options/policy.js";
export type { CallCancellation, EngineLike, RunOptions } from "./run/options/run-options.js";
export { CallCancelledError } from "./run/results/call-cancelled-error.js";
export { reportFate, type ExecutorFate } from "./run/results/executor-fate.js";
export type {
  AttemptFailedReport,
  CallReport,
  CallReportBase,
  LateSettlementReport,
  NestedEventReport,
  ProgressReport,
  LogReport,
  RecipeStepFields,
  RecipeStepReport,
  RepairedReport,
} from "./run/results/call-report.js";
export type { ProgressUpdate } from "./tool/handler-context.js";
export { LOG_LEVELS, type LogEntry, type LogLevel } from "./tool/handler-context.js";
export { UserInputRequired, type UserAnswer, type UserAnswerOf, type UserForm } from "./tool/user-form.js";
export type { SampleMessage, SampleReply, SampleRequest } from "./tool/sampling.js";
export { ClientRequestError, type ClientRequestReason } from "./tool/client-request-error.js";
export type { ClientChannel } from "./tool/client-channel.js";
export { readToolApp, toolAppOf, type ToolApp } from "./tool/tool-app.js";
export type { RetryPolicy, RetryableReason } from "./tool/retry-policy.js";
export type { ToolControl } from "./tool/tool-control.js";
export type { AfterCallAnswer, BeforeCallAnswer, CallHook } from "./tool/call-hook.js";
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
} from "./run/results/events.js";
export { RunResultCollector, type AskUserHalt, type HaltMetadata, type HandlerHalt, type RunResult, type ToolErrorHalt } from "./run/results/run-result.js";
export type { ToolMessage } from "./tool/message.js";
export { streamToolCalls } from "./run/stream.js";
export { runToolCalls } from "./run/batch.js";
export { isToolResolver, type ToolResolver } from "./resolve/resolver.js";
export { toolResolver, type ToolResolverOptions } from "./resolve/tool-resolver.js";
export { mergeResolvers } from "./resolve/merge-resolvers.js";
export {
  composeRecipeReport,
  type Recipe,
  type RecipePlan,
  type RecipeResults,
  type RecipeStep,
  type ResolveAnswer,
} from "./resolve/recipe.js";
export { executeToolCalls } from "./run/execute-tool-calls.js";
export { streamAgent } from "./agent/stream-agent.js";
export { runAgent } from "./agent/run-agent.js";
export {
  ModelEventError,
  type FinishReason,
  type Model,
  type ModelEvent,
  type ModelRequest,
  type TokenUsage,
  type UsageSource,
} from "./agent/model/index.js";
export {
  type PrepareTurn,
  type TurnInfo,
  type TurnPlan,
  chainTurns,
  clearToolResults,
  type ClearToolResultsOptions,
} from "./agent/prepare-turn/index.js";
export {
  RRF_K,
  toolSearch,
  type EmbeddingCache,
  type EmbedTexts,
  type ToolGroupInfo,
  type ToolMatch,
  type ToolSearch,
  type ToolSearchOptions,
} from "./agent/tool-search/index.js";
export type { FailedToolCall, RepairToolCall } from "./tool/repair-tool-call.js";
export { resultPages, type ResultPages, type ResultPagesOptions } from "./tool/result-pages.js";
export { memoryResultStore, type ResultStore } from "./tool/result-store.js";
export { agentTool, type AgentToolDefinition, type SubagentOptions } from "./agent/agent-tool.js";
export type { SubagentState } from "./agent/subagents/index.js";
export {
  type JournalEntry,
  type JournalOptions,
  type JournalPhase,
  type JournalStore,
  type JournalVerdict,
  type JournalReattach,
  JournalLeaseError,
  JournalStaleInputError,
  RecordedEndingError,
  MemoryJournalStore,
  type MemoryJournalStoreOptions,
} from "./agent/journal/index.js";
export type { ApprovalContext, NeedsApproval, PendingApproval, PendingQuestion } from "./tool/approval/needs-approval.js";
export { APPROVAL_MISMATCH_REASONS, ApprovalMismatchError, type ApprovalMismatchReason } from "./tool/approval/approval-mismatch-error.js";
export { memoryApprovalLedger, type ApprovalLedger, type MemoryApprovalLedgerOptions } from "./tool/approval/approval-ledger.js";
export {
  approvalToken,
  verifyApprovalToken,
  type ApprovalSecret,
  type ApprovalSecrets,
  type ApprovalSubject,
  type ApprovalTokenOptions,
  type VerifyApprovalTokenOptions,
} from "./tool/approval/approval-token.js";
export { approve, deny } from "./tool/decide.js";
export type {
  AgentEnding,
  AgentHaltedEvent,
  AgentResult,
  PendingWork,
  AgentEvent,
  ModelReplyEvent,
  SubagentEvent,
  ToolInputEvent,
  ReasoningEvent,
} from "./agent/events/index.js";
export type { AgentOptions, TurnResult } from "./agent/options/index.js";
export type { ApprovalMessage, AssistantMessage, Message, ProviderItem, ReasoningPart, TextMessage, TextState } from "./tool/message.js";
export type { ProviderState } from "./tool/provider-state.js";
export { toAsyncIterable } from "./util/to-async-iterable.js";
