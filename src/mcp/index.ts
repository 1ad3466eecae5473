export {
  defaultToolName,
  type McpElicitationOptions,
  type McpTaskOptions,
  type McpToolAnnotations,
  type McpToolMetadata,
  type McpToolNaming,
  McpToolsError,
  type McpToolsErrorReason,
  type McpToolsOptions,
  mcpTools,
} from "./client/index.js";
export { mcpJournalReattach, type McpInputResumed, mcpReattachCall, mcpRetryCall, resumeMcpInput } from "./resume/index.js";
export { type McpInputRequest, renderContent } from "./results/index.js";
export { type ServeToolsOptions, serveTools } from "./server/index.js";
export { type McpTaskRecords, type McpTaskReport, type McpTaskStatus, McpTaskStore, type ServeTaskOptions } from "./tasks/index.js";
export type { McpClientLike, McpClientTelemetry, McpProgress, McpServerLike, McpServerTelemetry, McpTraceContext } from "./wire/index.js";
