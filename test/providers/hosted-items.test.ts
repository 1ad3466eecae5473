import { describe, expect, it } from "vitest";
import { runAgent, type AssistantMessage, type Message, type Model } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";
import { searchResult, searchUse, webCall } from "./hosted-fixtures.js";

/** An assistant turn that searched the web (on the provider), said something, and called a tool of ours. */
const anthropicTurn: AssistantMessage = {
  role: "assistant",
  content: "Let me look. It is cold.",
  toolCalls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" } }],
  providerItems: [
    { provider: "anthropic", item: searchUse, textOffset: 12 },
    { provider: "anthropic", item: searchResult, textOffset: 12 },
  ],
};
const responsesTurn: AssistantMessage = {
  role: "assistant",
  content: "It is cold.",
  toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' }],
  providerItems: [{ provider: "openai-responses", item: webCall, textOffset: 0 }],
};
const conversationOf = (turn: AssistantMessage, id: string): Message[] => [
  { role: "user", content: "Weather in Oslo?" },
  turn,
  { role: "tool", toolCallId: id, name: "weather", content: '{"tempC":-3}', isError: false },
];

describe("hosted tool items through the converters", () => {
  it("anthropic: written in place between the text, read back unchanged, within the API's rules", () => {
    const conversation = conversationOf(anthropicTurn, "toolu_1");
    const { messages } = anthropic.toMessages(conversation);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        searchUse,
        searchResult,
        { type: "text", text: " It is cold." },
        { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Oslo" } },
      ],
    });
    expect(anthropic.fromMessages(messages)).toEqual(conversation);
    expect(anthropic.fromMessage(messages[1] as never)).toEqual(anthropicTurn);
    expect(checkConversation(messages, "anthropic")).toEqual([]);
  });

  it("openai responses: the item goes back as it came, before the text, and is read back into its turn", () => {
    const conversation = conversationOf(responsesTurn, "call_1");
    const input = openai.toResponsesInput(conversation);
    expect(input).toEqual([
      { role: "user", content: "Weather in Oslo?" },
      webCall,
      { role: "assistant", content: "It is cold." },
      { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", call_id: "call_1", output: '{"tempC":-3}' },
    ]);
    expect(openai.fromResponsesInput(input)).toEqual(conversation);
    expect(checkConversation(input, "openai-responses")).toEqual([]);
    const output = [webCall, { type: "message", content: [{ type: "output_text", text: "It is cold." }] }];
    expect(openai.fromResponseOutput(output)).toEqual({ role: "assistant", content: "It is cold.", providerItems: responsesTurn.providerItems });
  });

  it("a provider that cannot take another's item says whose it is, what it is and where", () => {
    const chat = () => openai.toChatMessages(conversationOf(anthropicTurn, "toolu_1"));
    expect(chat).toThrow(TypeError);
    expect(chat).toThrow(/message 1 \(assistant\) of `openai.toChatMessages` to carry no anthropic provider items, got a "server_tool_use" item/);
    expect(() => anthropic.toMessages(conversationOf(responsesTurn, "call_1"))).toThrow(
      /`anthropic.toMessages` to carry no openai-responses provider items, got a "web_search_call" item: openai-responses ran it, and anthropic cannot take it/,
    );
    expect(() => openai.toResponsesInput(conversationOf(anthropicTurn, "toolu_1"))).toThrow(/got a "server_tool_use" item/);
  });

  it("a conversation whose provider items are malformed is refused before any turn", async () => {
    const bad: Message[] = [
      { role: "user", content: "Hi" },
      { role: "assistant", content: "ok", providerItems: [{ provider: "gemini", item: {}, textOffset: 0 }] as never },
    ];
    const model: Model = async function* () {};
    await expect(runAgent({ model, tools: [], messages: bad })).rejects.toThrow(
      'Expected `messages[1].providerItems[0]` to have a `provider` of "anthropic" or "openai-responses", got "gemini"',
    );
    const late: Message[] = [{ role: "assistant", content: "ok", providerItems: [{ provider: "anthropic", item: { type: "x" }, textOffset: 3 }] }];
    await expect(runAgent({ model, tools: [], messages: late })).rejects.toThrow("`messages[0].providerItems[0].textOffset` to be an integer from 0 to 2");
  });
});

describe("checkConversation, anthropic, with blocks the provider ran", () => {
  const user = { role: "user", content: "Weather in Oslo?" };
  it("wants each server_tool_use answered in its own message, by the assistant, once", () => {
    const unanswered = [user, { role: "assistant", content: [searchUse, { type: "text", text: "Hm." }] }, { role: "user", content: "And?" }];
    expect(checkConversation(unanswered, "anthropic")).toEqual([
      {
        code: "missing_tool_result",
        path: [1, "content", 0],
        message: 'server_tool_use "srvtoolu_1" of message 1 has no result block after it in the same message',
      },
    ]);
    const orphan = [user, { role: "assistant", content: [searchResult, searchUse] }, { role: "user", content: "And?" }];
    expect(checkConversation(orphan, "anthropic").map((i) => i.code)).toEqual(["orphan_tool_result", "missing_tool_result"]);
    const misplaced = [{ role: "user", content: [searchUse, searchResult] }];
    expect(checkConversation(misplaced, "anthropic").map((i) => i.code)).toEqual(["misplaced_block", "misplaced_block"]);
  });

  it("lets the final assistant message stop between a server tool's call and its result (pause_turn)", () => {
    expect(checkConversation([user, { role: "assistant", content: [searchUse] }], "anthropic")).toEqual([]);
  });
});
