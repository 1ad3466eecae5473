// Results: a tool's answer crossing MCP, both ways. A server's `CallToolResult` checked and read
// into a toolrx result (or its question into an `ask_user`), and a toolrx call's events written as
// a `CallToolResult`; content blocks and content parts map one to one. Imports no other concept.
export {
  inputRequired,
  type McpInputRequest,
  rejectedResult,
  renderContent,
  type ResultContext,
  resultOf,
} from "./call-result.js";
export { servedResultOf, textResult } from "./served-result.js";
