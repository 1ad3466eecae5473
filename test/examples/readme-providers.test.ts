/**
 * The doc blocks that call a provider's API through its SDK (`openai`, `@anthropic-ai/sdk`) run
 * unchanged against a local fake provider (fake-providers.ts) that the SDKs are pointed at
 * through their environment variables; the tests check what each block sent and what it computed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { FAKE_IDS, setEnv, startFakeProviders, type FakeProviders } from "../support/fake-providers.js";
import { blocks, callsProvider, PROVIDER_SECTIONS } from "./doc-blocks.js";

describe("README.md provider blocks", () => {
  const weatherSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
  const weatherResult = '{"city":"Paris","tempC":21}';
  const providerBlocks = blocks.filter((b) => callsProvider(b.code));

  it("every block that uses openai or @anthropic-ai/sdk is one of the round trips run against the fake provider", () => {
    expect(providerBlocks.map((b) => b.section)).toEqual(PROVIDER_SECTIONS);
  });

  describe("run unchanged against a local fake provider", () => {
    let fake: FakeProviders;
    beforeEach(async () => {
      fake = await startFakeProviders();
      const restoreEnv = setEnv(fake.env);
      return async () => {
        restoreEnv();
        await fake.close();
      };
    });

    const named = (section: string) => {
      const block = providerBlocks.find((b) => b.section === section);
      return `${section} (${block?.doc ?? "?"}:${block?.line ?? "?"})`;
    };
    /** Runs the block of `section` and returns its top-level bindings. */
    async function run(section: string): Promise<Record<string, unknown>> {
      const block = providerBlocks.find((b) => b.section === section);
      if (!block) throw new Error(`The docs have no provider block under "${section}"`);
      return (await import(block.file)) as Record<string, unknown>;
    }
    const received = () => fake.requests.map((r) => `${r.method} ${r.path}`);

    it(`${named("Models for the agent loop")}: streams one turn through the SDK and gives the events the README shows`, async () => {
      const { events } = await run("Models for the agent loop");

      expect(received()).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests[0]?.body).toEqual({
        model: "gpt-4.1",
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ type: "function", function: { name: "weather", description: "Weather by city", parameters: weatherSchema } }],
      });
      expect(events).toEqual([
        { type: "tool_input_started", id: FAKE_IDS.chatToolCall, name: "weather" },
        { type: "tool_input_delta", id: FAKE_IDS.chatToolCall, delta: '{"cit' },
        { type: "tool_input_delta", id: FAKE_IDS.chatToolCall, delta: 'y":"Paris"}' },
        { type: "tool_call", call: { id: FAKE_IDS.chatToolCall, name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
        { type: "finish", reason: "tool_calls" },
      ]);
    });

    it(`${named("Converting a conversation")}: one conversation, written for OpenAI and for Anthropic as the README shows`, async () => {
      const { forOpenAI, forAnthropic } = await run("Converting a conversation");

      expect(received()).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests[0]?.body).toMatchObject({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Weather in Paris?" },
        ],
      });
      expect(forOpenAI).toEqual([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: FAKE_IDS.chatToolCall, type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: FAKE_IDS.chatToolCall, content: weatherResult },
      ]);
      expect(forAnthropic).toEqual({
        system: "Be brief.",
        messages: [
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: [{ type: "tool_use", id: FAKE_IDS.chatToolCall, name: "weather", input: { city: "Paris" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: FAKE_IDS.chatToolCall, content: weatherResult, is_error: false }] },
        ],
      });
    });

    it(`${named("OpenAI Chat Completions")}: sends the weather tool, then appends a tool message answering the model's call`, async () => {
      const { history } = await run("OpenAI Chat Completions");

      expect(received()).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests[0]?.body).toEqual({
        model: "gpt-4.1",
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ type: "function", function: { name: "weather", description: "Weather by city", parameters: weatherSchema } }],
      });
      expect(history).toEqual([
        { role: "user", content: "Weather in Paris?" },
        expect.objectContaining({ role: "assistant", tool_calls: [expect.objectContaining({ id: FAKE_IDS.chatToolCall })] }),
        { role: "tool", tool_call_id: FAKE_IDS.chatToolCall, content: weatherResult },
      ]);
    });

    it(`${named("OpenAI Responses")}: answers the function_call with a function_call_output on the follow-up request`, async () => {
      await run("OpenAI Responses");

      expect(received()).toEqual(["POST /v1/responses", "POST /v1/responses"]);
      const tools = [{ type: "function", name: "weather", description: "Weather by city", parameters: weatherSchema, strict: false }];
      const [first, followUp] = fake.requests;
      expect(first?.body).toEqual({ model: "gpt-4.1", input: "Weather in Paris?", tools });
      expect(followUp?.body).toEqual({
        model: "gpt-4.1",
        previous_response_id: FAKE_IDS.response,
        input: [{ type: "function_call_output", call_id: FAKE_IDS.responsesToolCall, output: weatherResult }],
        tools,
      });
    });

    it(`${named("Anthropic Messages")}: sends the weather tool, then appends a tool_result message answering the tool_use`, async () => {
      const { messages } = await run("Anthropic Messages");

      expect(received()).toEqual(["POST /v1/messages"]);
      expect(fake.requests[0]?.body).toEqual({
        model: "claude-sonnet-4-6",
        max_tokens: 1024,
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ name: "weather", description: "Weather by city", input_schema: weatherSchema }],
      });
      expect(messages).toEqual([
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: [
            expect.objectContaining({ type: "text" }),
            expect.objectContaining({ type: "tool_use", id: FAKE_IDS.anthropicToolUse, name: "weather", input: { city: "Paris" } }),
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: FAKE_IDS.anthropicToolUse, content: weatherResult, is_error: false }] },
      ]);
    });
  });
});
