// Client: `mcpTools`, an MCP server's tools as toolrx tools. Listing and checking the server's
// tools, naming them, and calling them: plainly, as a task, or held on a server's question until
// the host answers. Imports wire, results and tasks.
export type { McpToolAnnotations } from "./list-tools.js";
export { McpToolsError, type McpToolsErrorReason } from "./mcp-tools-error.js";
export { type McpElicitationOptions, type McpTaskOptions, type McpToolMetadata, type McpToolsOptions, mcpTools } from "./mcp-tools.js";
export { defaultToolName, type McpToolNaming } from "./tool-names.js";
