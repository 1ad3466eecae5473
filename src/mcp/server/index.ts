// Server: `serveTools`, toolrx tools served on an MCP server. Each `tools/call` runs through the
// runner, with approvals asked through elicitation, the client's requests (questions, sampling,
// logging) as the call's channel, and long calls served as tasks. Imports wire, results and tasks.
export { type ServeToolsOptions, serveTools } from "./serve-tools.js";
