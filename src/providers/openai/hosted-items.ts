/**
 * An output item OpenAI ran itself, sent back in `input` exactly as the provider wrote it. toolrx
 * never reads inside one: the fields it does not read are typed `never`, which keeps the request
 * assignable to the SDK's own types; cast to the SDK's item type to read them.
 */
export type ResponsesHostedItem =
  | { type: "web_search_call"; id: string; action: never; status: never }
  | { type: "file_search_call"; id: string; queries: never; status: never }
  | { type: "code_interpreter_call"; id: string; code: never; container_id: string; outputs: never; status: never }
  | { type: "image_generation_call"; id: string; result: never; status: never }
  | { type: "mcp_call"; id: string; arguments: string; name: string; server_label: string }
  | { type: "mcp_list_tools"; id: string; server_label: string; tools: never }
  | { type: "tool_search_call"; arguments: unknown }
  | { type: "tool_search_output"; tools: never };

const HOSTED: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
  "mcp_list_tools",
  "tool_search_call",
  "tool_search_output",
]);

/**
 * Whether `item` is one OpenAI ran itself and the conversation keeps as a provider item. A tool
 * search the client was to run (`execution: "client"`) is not: toolrx would have to answer it,
 * and it does not, so it is refused by the caller rather than left unanswered.
 */
export function isHostedItem(item: { readonly type: string; readonly execution?: unknown }): boolean {
  return HOSTED.has(item.type) && item.execution !== "client";
}
