import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type AssistantMessage, type Message, type Model } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";
import { startProviderServer, type ProviderServer } from "../../src/testing/server/index.js";

const searchUse = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "Oslo weather" } };
const searchResult = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_1",
  content: [{ type: "web_search_result", url: "https://example.com/oslo", title: "Oslo", encrypted_content: "e1", page_age: null }],
};
const webCall = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "Oslo weather" } };

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

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());

const ran: string[] = [];
// Named like the provider's own tool, so a hosted call mistaken for a client call would run it.
const webSearch = defineTool({
  name: "web_search",
  description: "a client tool with the hosted tool's name",
  schema: z.object({ query: z.string() }),
  handler: ({ query }) => {
    ran.push(`web_search:${query}`);
    return ok("client result");
  },
});
const weather = defineTool({
  name: "weather",
  description: "weather in a city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => {
    ran.push(`weather:${city}`);
    return ok({ tempC: -3 });
  },
});

const anthropicClient = () => new Anthropic({ baseURL: server.anthropicBaseURL, apiKey: "test", maxRetries: 0 });
const openaiClient = () => new OpenAI({ baseURL: server.openaiBaseURL, apiKey: "test", maxRetries: 0 });

describe("hosted tool items through the real SDKs and the loop", () => {
  it("anthropic: streamed server tool blocks land in the assistant message, never run, and go back on the next request", async () => {
    ran.length = 0;
    server.reply(
      { hosted: [searchUse, searchResult], text: "It is cold.", calls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" } }] },
      { text: "-3 °C." },
    );
    const model = anthropic.messagesModel({ client: anthropicClient(), model: "claude-test" });
    const result = await runAgent({ model, tools: [webSearch, weather], messages: [{ role: "user", content: "Weather in Oslo?" }] });
    expect(result.haltedReason).toBe("completed");
    expect(ran).toEqual(["weather:Oslo"]);
    expect(result.messages[1]).toEqual({
      role: "assistant",
      content: "It is cold.",
      toolCalls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' }],
      providerItems: [
        { provider: "anthropic", item: searchUse, textOffset: 0 },
        { provider: "anthropic", item: searchResult, textOffset: 0 },
      ],
    });
    const sent = server.requests.at(-1)?.body as { messages: { content: unknown }[] };
    expect(sent.messages[1]?.content).toEqual([
      searchUse,
      searchResult,
      { type: "text", text: "It is cold." },
      { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Oslo" } },
    ]);
    expect(checkConversation(sent.messages, "anthropic")).toEqual([]);
  });

  it("openai responses: streamed hosted items land in the assistant message, never run, and go back on the next request", async () => {
    ran.length = 0;
    server.reply({ hosted: [webCall], text: "It is cold.", calls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" } }] }, { text: "-3 °C." });
    const model = openai.responsesModel({ client: openaiClient(), model: "gpt-test" });
    const result = await runAgent({ model, tools: [webSearch, weather], messages: [{ role: "user", content: "Weather in Oslo?" }] });
    expect(result.haltedReason).toBe("completed");
    expect(ran).toEqual(["weather:Oslo"]);
    expect((result.messages[1] as AssistantMessage).providerItems).toEqual([{ provider: "openai-responses", item: webCall, textOffset: 0 }]);
    const sent = server.requests.at(-1)?.body as { input: unknown[] };
    expect(sent.input.slice(1, 3)).toEqual([
      webCall,
      { type: "message", id: "msg_2", role: "assistant", status: "completed", content: [{ type: "output_text", text: "It is cold.", annotations: [] }] },
    ]);
    expect(checkConversation(sent.input, "openai-responses")).toEqual([]);
  });

  it("openai responses: an item the client was to answer ends the turn with an error instead of being dropped", async () => {
    ran.length = 0;
    server.reply({
      hosted: [{ type: "computer_call", id: "cu_1", call_id: "c1", status: "completed", action: { type: "screenshot" }, pending_safety_checks: [] }],
    });
    const model = openai.responsesModel({ client: openaiClient(), model: "gpt-test" });
    const result = await runAgent({ model, tools: [weather], messages: [{ role: "user", content: "Look at the screen" }] });
    expect(result.haltedReason).toBe("error");
    expect(String((result.metadata as { error: unknown }).error)).toContain('OpenAI sent a "computer_call" output item, which toolrx has no place for');
  });
});

describe("the providers' own tool search", () => {
  const tools = [weather, webSearch];

  it("anthropic: defers every tool but alwaysLoaded, next to the bm25 search tool, and keeps its search in the conversation", async () => {
    const use = { type: "server_tool_use", id: "srvtoolu_2", name: "tool_search_tool_bm25", input: { query: "weather" } };
    const found = {
      type: "tool_search_tool_result",
      tool_use_id: "srvtoolu_2",
      content: { type: "tool_search_tool_search_result", tool_references: [{ type: "tool_reference", tool_name: "weather" }] },
    };
    server.reply({ hosted: [use, found], calls: [{ id: "toolu_2", name: "weather", arguments: { city: "Oslo" } }] }, { text: "Cold." });
    const model = anthropic.messagesModel({ client: anthropicClient(), model: "claude-test", toolSearch: { alwaysLoaded: ["web_search"] } });
    const before = server.requests.length;
    const result = await runAgent({ model, tools, messages: [{ role: "user", content: "Weather in Oslo?" }] });
    expect(result.haltedReason).toBe("completed");
    const first = server.requests[before]?.body as { tools: Record<string, unknown>[] };
    expect(first.tools.map(({ name, type, defer_loading }) => ({ name, type, defer_loading }))).toEqual([
      { name: "tool_search_tool_bm25", type: "tool_search_tool_bm25_20251119", defer_loading: undefined },
      { name: "weather", type: undefined, defer_loading: true },
      { name: "web_search", type: undefined, defer_loading: undefined },
    ]);
    const second = server.requests.at(-1)?.body as { messages: { content: unknown[] }[] };
    expect(second.messages[1]?.content.slice(0, 2)).toEqual([use, found]);
  });

  it("anthropic: the regex variant, and options checked when the model is made", () => {
    const client = anthropicClient();
    expect(() => anthropic.messagesModel({ client, model: "m", toolSearch: { variant: "semantic" as never } })).toThrow(
      'Expected `toolSearch.variant` of `anthropic.messagesModel` to be "bm25" or "regex", got "semantic"',
    );
    expect(() => anthropic.messagesModel({ client, model: "m", toolSearch: { always: [] } as never })).toThrow(
      "Unknown option `toolSearch.always` of `anthropic.messagesModel`; it takes `alwaysLoaded`, `variant`",
    );
    expect(() => openai.responsesModel({ client: openaiClient(), model: "m", toolSearch: { alwaysLoaded: "weather" } as never })).toThrow(
      "Expected `toolSearch.alwaysLoaded` of `openai.responsesModel` to be an array of tool names, got a string",
    );
  });

  it("openai responses: defers every tool but alwaysLoaded, next to the tool_search tool, and keeps its search in the conversation", async () => {
    const call = { type: "tool_search_call", id: "tsc_1", call_id: null, execution: "server", status: "completed", arguments: { query: "weather" } };
    const output = {
      type: "tool_search_output",
      id: "tso_1",
      call_id: null,
      execution: "server",
      status: "completed",
      tools: [{ type: "function", name: "weather", parameters: {}, strict: false }],
    };
    server.reply({ hosted: [call, output], calls: [{ id: "call_2", name: "weather", arguments: { city: "Oslo" } }] }, { text: "Cold." });
    const model = openai.responsesModel({ client: openaiClient(), model: "gpt-test", toolSearch: {} });
    const before = server.requests.length;
    const result = await runAgent({ model, tools, messages: [{ role: "user", content: "Weather in Oslo?" }] });
    expect(result.haltedReason).toBe("completed");
    const first = server.requests[before]?.body as { tools: Record<string, unknown>[] };
    expect(first.tools.map(({ name, type, defer_loading }) => ({ name, type, defer_loading }))).toEqual([
      { name: undefined, type: "tool_search", defer_loading: undefined },
      { name: "weather", type: "function", defer_loading: true },
      { name: "web_search", type: "function", defer_loading: true },
    ]);
    const second = server.requests.at(-1)?.body as { input: unknown[] };
    expect(second.input.slice(1, 3)).toEqual([call, output]);
    expect(checkConversation(second.input, "openai-responses")).toEqual([]);
  });
});
