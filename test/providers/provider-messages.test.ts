/**
 * The converters between toolrx's conversation (§9 `Message`s) and each provider's messages,
 * and the model functions' up-front option checks.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/tool/message.js";
import { anthropic, openai } from "../../src/providers/index.js";

/** A conversation with every kind of message: a turn with two calls (one malformed), an ask-user halt and its answer, an approval. */
const conversation: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Paris and Oslo?" },
  {
    role: "assistant",
    content: "Checking.",
    toolCalls: [
      { id: "c1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' },
      { id: "c2", name: "weather", arguments: {}, rawArguments: '{"city": "Os' },
    ],
  },
  { role: "approval", toolCallId: "c1", approved: true },
  { role: "tool", toolCallId: "c1", name: "weather", content: '{"tempC":21}', isError: false },
  { role: "tool", toolCallId: "c2", name: "weather", content: '{"error":"the arguments were not valid JSON"}', isError: true },
  { role: "assistant", content: "Which Oslo?", metadata: { askUser: true, toolCallId: "c3" } },
  { role: "user", content: "Norway." },
  { role: "assistant", content: "", toolCalls: [{ id: "c4", name: "now", arguments: {} }] },
];

describe("openai.toChatMessages", () => {
  it("writes each message in Chat form: calls with their raw text, the ask-user question as assistant text, approvals left out", () => {
    expect(openai.toChatMessages(conversation)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris and Oslo?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          { id: "c2", type: "function", function: { name: "weather", arguments: '{"city": "Os' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: '{"tempC":21}' },
      { role: "tool", tool_call_id: "c2", content: '{"error":"the arguments were not valid JSON"}' },
      { role: "assistant", content: "Which Oslo?" },
      { role: "user", content: "Norway." },
      { role: "assistant", content: null, tool_calls: [{ id: "c4", type: "function", function: { name: "now", arguments: "{}" } }] },
    ]);
  });

  it("and back: a completion's assistant turn as a toolrx message", () => {
    const message = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function" as const, function: { name: "weather", arguments: '{"city":"Paris"}' } }],
    };
    expect(openai.fromChatMessage({ choices: [{ message }] })).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }],
    });
    expect(openai.fromChatMessage({ role: "assistant", content: "Hi" })).toEqual({ role: "assistant", content: "Hi" });
  });
});

describe("openai.toResponsesInput", () => {
  it("writes text as messages, calls as function_call items, tool messages as function_call_output; approvals left out", () => {
    expect(openai.toResponsesInput(conversation)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris and Oslo?" },
      { role: "assistant", content: "Checking." },
      { type: "function_call", call_id: "c1", name: "weather", arguments: '{"city":"Paris"}' },
      { type: "function_call", call_id: "c2", name: "weather", arguments: '{"city": "Os' },
      { type: "function_call_output", call_id: "c1", output: '{"tempC":21}' },
      { type: "function_call_output", call_id: "c2", output: '{"error":"the arguments were not valid JSON"}' },
      { role: "assistant", content: "Which Oslo?" },
      { role: "user", content: "Norway." },
      { type: "function_call", call_id: "c4", name: "now", arguments: "{}" },
    ]);
  });

  it("and back: a response's text and function calls as a toolrx message", () => {
    const output = [
      {
        type: "message",
        content: [
          { type: "output_text", text: "Checking " },
          { type: "output_text", text: "now." },
        ],
      },
      { type: "function_call", id: "fc_1", call_id: "c1", name: "weather", arguments: '{"city":"Paris"}' },
    ];
    expect(openai.fromResponseOutput({ output })).toEqual({
      role: "assistant",
      content: "Checking now.",
      toolCalls: [
        {
          id: "c1",
          name: "weather",
          arguments: { city: "Paris" },
          rawArguments: '{"city":"Paris"}',
          metadata: { itemId: "fc_1" },
          providerState: { provider: "openai-responses", data: { id: "fc_1" } },
        },
      ],
    });
  });
});

describe("anthropic.toMessages", () => {
  it("moves system to `system`, writes tool_use blocks, groups consecutive tool results into one user message with is_error, skips approvals", () => {
    expect(anthropic.toMessages(conversation)).toEqual({
      system: "Be brief.",
      messages: [
        { role: "user", content: "Weather in Paris and Oslo?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "c1", name: "weather", input: { city: "Paris" } },
            { type: "tool_use", id: "c2", name: "weather", input: { rawArguments: '{"city": "Os' } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: '{"tempC":21}', is_error: false },
            { type: "tool_result", tool_use_id: "c2", content: '{"error":"the arguments were not valid JSON"}', is_error: true },
          ],
        },
        { role: "assistant", content: "Which Oslo?" },
        { role: "user", content: "Norway." },
        { role: "assistant", content: [{ type: "tool_use", id: "c4", name: "now", input: {} }] },
      ],
    });
  });

  it("gives no `system` when the conversation has none", () => {
    expect(anthropic.toMessages([{ role: "user", content: "Hi" }])).toEqual({ messages: [{ role: "user", content: "Hi" }] });
  });

  it("and back: a reply's text blocks and tool_use blocks as a toolrx message", () => {
    const reply = {
      content: [
        { type: "text", text: "Let me " },
        { type: "text", text: "check." },
        { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } },
      ],
    };
    expect(anthropic.fromMessage(reply)).toEqual({
      role: "assistant",
      content: "Let me check.",
      toolCalls: [{ id: "t1", name: "weather", arguments: { city: "Paris" } }],
    });
  });
});

describe("converters given a malformed conversation", () => {
  it("throw a TypeError naming the message, not a provider's 400 later", () => {
    expect(() => openai.toChatMessages("hi" as never)).toThrow(
      new TypeError("Expected `messages` of `openai.toChatMessages` to be an array of messages, got a string"),
    );
    expect(() =>
      anthropic.toMessages([
        { role: "user", content: "a" },
        { role: "bot", content: "b" },
      ] as never),
    ).toThrow(new TypeError('Expected message 1 of `anthropic.toMessages` to have a `role` of "system", "user", "assistant", "tool" or "approval", got "bot"'));
    expect(() => openai.toResponsesInput([{ role: "user", content: undefined }] as never)).toThrow(
      new TypeError("Expected `content` of message 0 (user) of `openai.toResponsesInput` to be a string, got undefined"),
    );
  });
});

describe("model functions check their options when made", () => {
  const create = async () => (async function* () {})();
  const client = { chat: { completions: { create } }, responses: { create } };

  it("a client without the SDK method is a TypeError naming `client`", () => {
    expect(() => openai.chatModel({ client: {} as never, model: "gpt-4.1" })).toThrow(
      new TypeError("Expected `client` of `openai.chatModel` to be an OpenAI client (with `chat.completions.create`), got an object"),
    );
    expect(() => openai.responsesModel({ client: undefined as never, model: "gpt-4.1" })).toThrow(/`client` of `openai.responsesModel`.*got undefined/);
    expect(() => anthropic.messagesModel({ client: client as never, model: "claude" })).toThrow(
      /`client` of `anthropic.messagesModel` to be an Anthropic client \(with `messages.create`\)/,
    );
  });

  it("a missing or empty model is a TypeError naming `model`", () => {
    expect(() => openai.chatModel({ client, model: "" })).toThrow(new TypeError('Expected `model` of `openai.chatModel` to be a non-empty string, got ""'));
    expect(() => openai.responsesModel({ client, model: undefined as never })).toThrow(/`model` of `openai.responsesModel`.*got undefined/);
  });

  it("anthropic: max_tokens must be a positive integer, system a string", () => {
    const messages = { messages: { create } };
    expect(() => anthropic.messagesModel({ client: messages, model: "claude", max_tokens: 0 })).toThrow(
      new TypeError("Expected `max_tokens` of `anthropic.messagesModel` to be a positive integer, got 0"),
    );
    expect(() => anthropic.messagesModel({ client: messages, model: "claude", system: 1 as never })).toThrow(
      /`system` of `anthropic.messagesModel` to be a string/,
    );
  });

  it("options that are not an object are a TypeError", () => {
    expect(() => openai.chatModel(null as never)).toThrow(new TypeError("Expected `openai.chatModel` options to be an object, got null"));
  });
});
