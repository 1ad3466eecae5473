/**
 * A call whose arguments were not a JSON object is answered "not valid JSON"; every converter
 * keeps the model's own text in the history, so the model sees what it sent next to that answer.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/tool/message.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";

const conversationWith = (rawArguments: string): Message[] => [
  { role: "user", content: "Weather in Oslo?" },
  { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "weather", arguments: {}, rawArguments }] },
  { role: "tool", toolCallId: "c1", name: "weather", content: '{"error":"the arguments were not valid JSON"}', isError: true },
];

describe.each(['{"city": "Os', "[1, 2]", '"Oslo"'])("a call whose arguments were %s", (raw) => {
  const conversation = conversationWith(raw);

  it("keeps the text in Chat Completions' `arguments`", () => {
    const messages = openai.toChatMessages(conversation);
    expect(messages[1]).toMatchObject({ tool_calls: [{ function: { arguments: raw } }] });
    expect(checkConversation(messages, "openai-chat")).toEqual([]);
  });

  it("keeps the text in the Responses function_call's `arguments`", () => {
    const items = openai.toResponsesInput(conversation);
    expect(items[1]).toMatchObject({ type: "function_call", arguments: raw });
    expect(checkConversation(items, "openai-responses")).toEqual([]);
  });

  it("keeps the text in Anthropic's `input`, as the object the API requires", () => {
    const { messages } = anthropic.toMessages(conversation);
    expect(messages[1]).toEqual({ role: "assistant", content: [{ type: "tool_use", id: "c1", name: "weather", input: { rawArguments: raw } }] });
    expect(checkConversation(messages, "anthropic")).toEqual([]);
  });
});

describe("a call whose arguments parsed", () => {
  it("sends its arguments object to Anthropic, not the text", () => {
    const { messages } = anthropic.toMessages([
      { role: "user", content: "Weather?" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "weather", arguments: { city: "Oslo" }, rawArguments: ' {"city":"Oslo"} ' }] },
    ]);
    expect(messages[1]?.content).toEqual([{ type: "tool_use", id: "c1", name: "weather", input: { city: "Oslo" } }]);
  });
});
