// Resume: the host's side of a held MCP call. A call that asked the user, or whose task outlived
// its handler, comes back as a new tool call (answers for the server, or a task to re-attach to),
// and a journal re-attaches it after a restart. Imports results.
export { mcpJournalReattach } from "./journal-reattach.js";
export { mcpReattachCall } from "./reattach-call.js";
export { type McpInputResumed, resumeMcpInput } from "./resume-input.js";
export { mcpRetryCall } from "./retry-call.js";
