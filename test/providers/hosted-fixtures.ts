/** Anthropic's server-run web search: the call the provider made, in the assistant's content. */
export const searchUse = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "Oslo weather" } };
/** The provider's own result of {@link searchUse}, also in the assistant's content. */
export const searchResult = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_1",
  content: [{ type: "web_search_result", url: "https://example.com/oslo", title: "Oslo", encrypted_content: "e1", page_age: null }],
};
/** OpenAI Responses' hosted web search, an output item of its own. */
export const webCall = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "Oslo weather" } };
