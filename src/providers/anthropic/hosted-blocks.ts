/**
 * The content blocks Anthropic runs itself: its server tools' calls (`server_tool_use`) and their
 * results (`web_search_tool_result`, `code_execution_tool_result`, `tool_search_tool_result`…),
 * and files its code execution made (`container_upload`). toolrx keeps them as provider items:
 * never run, sent back as they came.
 */
export function isHostedBlock(type: string): boolean {
  return type === "server_tool_use" || type === "container_upload" || (type !== "tool_result" && type.endsWith("_tool_result"));
}
