import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type AssistantMessage } from "../../src/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";
import { startProviderServer, type ProviderServer } from "../../src/testing/server/index.js";
import { searchResult, searchUse, webCall } from "./hosted-fixtures.js";

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
