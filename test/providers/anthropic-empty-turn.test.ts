/**
 * Claude may answer a tool result with an empty `end_turn`. The loop keeps that turn as an
 * assistant message with empty content; the Messages API refuses empty content, so the
 * converter must still write a conversation it accepts, on every later turn.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/tool/message.js";
import { anthropic, checkConversation } from "../../src/providers/index.js";

const call = { id: "toolu_1", name: "weather", arguments: { city: "Paris" } };
const answered: Message[] = [
  { role: "user", content: "Weather in Paris?" },
  { role: "assistant", content: "", toolCalls: [call] },
  { role: "tool", toolCallId: "toolu_1", name: "weather", content: '{"tempC":21}', isError: false },
];

describe("anthropic.toMessages", () => {
  describe("when the model answered a tool result with an empty turn", () => {
    const conversation: Message[] = [...answered, { role: "assistant", content: "" }, { role: "user", content: "And tomorrow?" }];

    it("writes a conversation the Messages API accepts: the empty turn is left out, the user's words follow the results", () => {
      const { messages } = anthropic.toMessages(conversation);
      expect(checkConversation(messages, "anthropic")).toEqual([]);
      expect(messages).toEqual([
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: '{"tempC":21}', is_error: false },
            { type: "text", text: "And tomorrow?" },
          ],
        },
      ]);
    });

    it("keeps it valid when the empty turn ends the conversation", () => {
      const { messages } = anthropic.toMessages([...answered, { role: "assistant", content: "" }]);
      expect(checkConversation(messages, "anthropic")).toEqual([]);
    });
  });

  describe("when messages of one role follow each other", () => {
    it("merges them, so the roles alternate, and leaves out whitespace-only text", () => {
      const { messages } = anthropic.toMessages([
        { role: "user", content: "Hello." },
        { role: "user", content: "  " },
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: "Let me see." },
        { role: "assistant", content: "", toolCalls: [call] },
        { role: "tool", toolCallId: "toolu_1", name: "weather", content: "21", isError: false },
      ]);
      expect(checkConversation(messages, "anthropic")).toEqual([]);
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(messages[0]?.content).toEqual([
        { type: "text", text: "Hello." },
        { type: "text", text: "Weather in Paris?" },
      ]);
    });
  });
});
