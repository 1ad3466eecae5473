export { mcpTools, type McpToolMetadata, type McpToolsOptions } from "./mcp-tools.js";
export { McpToolsError, type McpToolsErrorReason } from "./mcp-tools-error.js";
export { defaultToolName, type McpToolNaming } from "./tool-names.js";
export { renderContent, type McpInputRequest } from "./call-result.js";
export type { McpClientLike, McpProgress } from "./client-like.js";
export type { McpToolAnnotations } from "./list-tools.js";
export { serveTools, type ServeToolsOptions } from "./serve-tools.js";
export type { McpServerLike } from "./server-like.js";
export { mcpRetryCall } from "./retry-call.js";
