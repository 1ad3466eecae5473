// The wire: what both sides of MCP speak, as toolrx sees the SDK. The parts of an SDK client and
// server toolrx uses (both SDK lines), the requests a client sends beside `callTool`, and the trace
// context carried in `_meta`. Imports nothing of src/mcp/; every other concept builds on it.
export {
  isConnectionLost,
  isMcpClient,
  type McpCallParams,
  type McpClientLike,
  type McpProgress,
  type McpRequestOptions,
  SDK_TIMEOUT_OFF,
  toolCaller,
} from "./client-like.js";
export { isV2Server, type McpRequestContext, type McpServerLike, setRequestHandler } from "./server-like.js";
export { checkTelemetry, type McpClientTelemetry, type McpServerTelemetry, type McpTraceContext } from "./mcp-telemetry.js";
export { type McpRequester, requester, serverTakesToolTasks, setClientRequestHandler } from "./task-requests.js";
