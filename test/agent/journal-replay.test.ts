import { describe, expect, it } from "vitest";
import { replayOf } from "../../src/agent/journal-replay.js";
import type { AssistantMessage } from "../../src/index.js";

describe("replayOf", () => {
  it("plays a recorded reply's provider items back where they stood in its text, so the replayed turn is the recorded one", () => {
    const use = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };
    const message: AssistantMessage = {
      role: "assistant",
      content: "Looking. Found.",
      toolCalls: [{ id: "c1", name: "weather", arguments: {} }],
      providerItems: [
        { provider: "anthropic", item: use, textOffset: 0 },
        { provider: "anthropic", item: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] }, textOffset: 8 },
      ],
    };
    expect(replayOf({ message, finishReason: "tool_calls", partial: false })).toEqual([
      { type: "provider_item", provider: "anthropic", item: use },
      { type: "text_delta", text: "Looking." },
      { type: "provider_item", provider: "anthropic", item: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] } },
      { type: "text_delta", text: " Found." },
      { type: "tool_call", call: { id: "c1", name: "weather", arguments: {} } },
      { type: "finish", reason: "tool_calls" },
    ]);
  });
});
