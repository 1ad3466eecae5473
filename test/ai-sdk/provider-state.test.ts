import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type Message, type Model } from "../../src/index.js";
import { aiSdkModel, type AiSdkLanguageModel } from "../../src/ai-sdk/index.js";
import { sseOf } from "../../src/testing/server/provider-frames.js";
import { startWireServer, type WireFrame, type WireServer } from "../support/wire-server.js";

let server: WireServer;
beforeAll(async () => {
  server = await startWireServer();
});
afterAll(() => server.close());

const weather = defineTool({
  name: "weather",
  description: "weather in a city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

const ASK: Message[] = [{ role: "user", content: "Weather in Oslo and Lima?" }];

/** Runs the two turns (calls, then an answer) and gives the body of the second request. */
async function secondRequest(model: Model, first: readonly WireFrame[] | string, second: readonly WireFrame[] | string): Promise<Record<string, unknown>> {
  const before = server.requests.length;
  server.reply(first, second);
  const result = await runAgent({ model, tools: [weather], messages: ASK });
  expect(result.haltedReason).toBe("completed");
  expect(server.requests.length - before).toBe(2);
  return server.requests[before + 1]?.body as Record<string, unknown>;
}

describe("aiSdkModel", () => {
  describe("with @ai-sdk/google (Gemini's streamGenerateContent)", () => {
    const gemini = () =>
      aiSdkModel(createGoogleGenerativeAI({ baseURL: `${server.origin}/v1beta`, apiKey: "test" })("gemini-3-pro-preview") as AiSdkLanguageModel);
    const chunk = (parts: unknown[], finishReason?: string): WireFrame => ({
      data: {
        candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) }],
        ...(finishReason === undefined ? {} : { usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 } }),
        modelVersion: "gemini-3-pro-preview",
      },
    });

    it("sends back the thoughtSignature of a function call, a text and a thought, where Gemini put them", async () => {
      const body = await secondRequest(
        gemini(),
        [
          chunk([{ text: "Weighing the cities.", thought: true, thoughtSignature: "c2lnLXRob3VnaHQ=" }]),
          chunk([{ text: "Checking." }]),
          chunk([{ text: "", thoughtSignature: "c2lnLXRleHQ=" }]),
          chunk(
            [
              { functionCall: { id: "call-oslo", name: "weather", args: { city: "Oslo" } }, thoughtSignature: "c2lnLWNhbGw=" },
              { functionCall: { id: "call-lima", name: "weather", args: { city: "Lima" } } },
            ],
            "STOP",
          ),
        ],
        [chunk([{ text: "Cold in Oslo, warm in Lima." }], "STOP")],
      );
      const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
      expect(contents[1]).toEqual({
        role: "model",
        parts: [
          { text: "Weighing the cities.", thought: true, thoughtSignature: "c2lnLXRob3VnaHQ=" },
          { text: "Checking.", thoughtSignature: "c2lnLXRleHQ=" },
          { functionCall: { id: "call-oslo", name: "weather", args: { city: "Oslo" } }, thoughtSignature: "c2lnLWNhbGw=" },
          { functionCall: { id: "call-lima", name: "weather", args: { city: "Lima" } } },
        ],
      });
      expect(JSON.stringify(body)).not.toContain("skip_thought_signature_validator");
    });
  });

  describe("with @ai-sdk/openai (Responses)", () => {
    const first = sseOf(
      "responses",
      { reasoning: "Two cities.", text: "Checking.", calls: [{ id: "call_oslo", name: "weather", arguments: { city: "Oslo" } }] },
      1,
    );
    const second = sseOf("responses", { text: "Cold in Oslo." }, 2);
    const responses = (callOptions?: Record<string, unknown>) =>
      aiSdkModel(createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test" }).responses("gpt-5") as AiSdkLanguageModel, { callOptions });

    // The SDK's choices, judged as it makes them: a client's own function call goes whole, and without `store` no item id is sent.
    it("refers back to the reasoning and message items by their ids (store: true)", async () => {
      const body = await secondRequest(responses(), first, second);
      expect((body.input as unknown[]).slice(1)).toEqual([
        { type: "item_reference", id: "rs_1" },
        { type: "item_reference", id: "msg_1" },
        { type: "function_call", call_id: "call_oslo", name: "weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call_output", call_id: "call_oslo", output: '{"city":"Oslo","tempC":21}' },
      ]);
    });

    it("sends the reasoning back whole, its encrypted content included (store: false)", async () => {
      const body = await secondRequest(responses({ providerOptions: { openai: { store: false } } }), first, second);
      expect((body.input as unknown[]).slice(1)).toEqual([
        { type: "reasoning", id: "rs_1", encrypted_content: "enc_1", summary: [{ type: "summary_text", text: "Two cities." }] },
        { role: "assistant", content: "Checking." },
        { type: "function_call", call_id: "call_oslo", name: "weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call_output", call_id: "call_oslo", output: '{"city":"Oslo","tempC":21}' },
      ]);
    });
  });

  describe("with @ai-sdk/anthropic (Messages)", () => {
    const block = (index: number, content_block: unknown, deltas: unknown[]): WireFrame[] => [
      { event: "content_block_start", data: { type: "content_block_start", index, content_block } },
      ...deltas.map((delta) => ({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } })),
      { event: "content_block_stop", data: { type: "content_block_stop", index } },
    ];
    const message = (n: number, blocks: WireFrame[], stop_reason: string): WireFrame[] => [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: `msg_${n}`,
            type: "message",
            role: "assistant",
            model: "claude-test",
            content: [],
            stop_reason: null,
            usage: { input_tokens: 20, output_tokens: 1 },
          },
        },
      },
      ...blocks,
      { event: "message_delta", data: { type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 9 } } },
      { event: "message_stop", data: { type: "message_stop" } },
    ];

    it("sends back the signed thinking block and the redacted one", async () => {
      const body = await secondRequest(
        aiSdkModel(createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: "test" })("claude-sonnet-4-5") as AiSdkLanguageModel),
        message(
          1,
          [
            ...block(0, { type: "thinking", thinking: "", signature: "" }, [
              { type: "thinking_delta", thinking: "Two cities." },
              { type: "signature_delta", signature: "sig-thinking" },
            ]),
            ...block(1, { type: "redacted_thinking", data: "redacted-data" }, []),
            ...block(2, { type: "text", text: "" }, [{ type: "text_delta", text: "Checking." }]),
            ...block(3, { type: "tool_use", id: "toolu_oslo", name: "weather", input: {} }, [{ type: "input_json_delta", partial_json: '{"city":"Oslo"}' }]),
          ],
          "tool_use",
        ),
        message(2, block(0, { type: "text", text: "" }, [{ type: "text_delta", text: "Cold in Oslo." }]), "end_turn"),
      );
      expect((body.messages as unknown[])[1]).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Two cities.", signature: "sig-thinking" },
          { type: "redacted_thinking", data: "redacted-data" },
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "toolu_oslo", name: "weather", input: { city: "Oslo" } },
        ],
      });
    });
  });

  /** Chat Completions chunks, as OpenAI-style APIs stream them. */
  const chatChunk = (delta: Record<string, unknown>, finish_reason: string | null = null, usage?: unknown): WireFrame => ({
    data: {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "test",
      choices: [{ index: 0, delta, finish_reason }],
      ...(usage === undefined ? {} : { usage }),
    },
  });
  const chatUsage = { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 };

  describe("with @ai-sdk/openai (Chat Completions)", () => {
    it("sends back the text and the call under the id the model gave", async () => {
      const body = await secondRequest(
        aiSdkModel(createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test" }).chat("gpt-test") as AiSdkLanguageModel),
        [
          chatChunk({ role: "assistant", content: "Checking." }),
          chatChunk({ tool_calls: [{ index: 0, id: "call_oslo", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] }),
          chatChunk({}, "tool_calls", chatUsage),
          { data: "[DONE]" },
        ],
        [chatChunk({ role: "assistant", content: "Cold in Oslo." }), chatChunk({}, "stop", chatUsage), { data: "[DONE]" }],
      );
      expect((body.messages as unknown[])[1]).toEqual({
        role: "assistant",
        content: "Checking.",
        tool_calls: [{ id: "call_oslo", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
      });
    });
  });

  describe("with @ai-sdk/openai-compatible (a Gemini OpenAI-compatible endpoint)", () => {
    it("sends back the reasoning_content and the call's extra_content thought_signature", async () => {
      const body = await secondRequest(
        aiSdkModel(createOpenAICompatible({ name: "gemini", baseURL: `${server.origin}/v1`, apiKey: "test" })("gemini-3-pro-preview") as AiSdkLanguageModel),
        [
          chatChunk({ role: "assistant", reasoning_content: "Two cities." }),
          chatChunk({ content: "Checking." }),
          chatChunk({
            tool_calls: [
              {
                index: 0,
                id: "call_oslo",
                type: "function",
                function: { name: "weather", arguments: '{"city":"Oslo"}' },
                extra_content: { google: { thought_signature: "c2lnLWNhbGw=" } },
              },
            ],
          }),
          chatChunk({}, "tool_calls", chatUsage),
          { data: "[DONE]" },
        ],
        [chatChunk({ role: "assistant", content: "Cold in Oslo." }), chatChunk({}, "stop", chatUsage), { data: "[DONE]" }],
      );
      expect((body.messages as unknown[])[1]).toEqual({
        role: "assistant",
        content: "Checking.",
        reasoning_content: "Two cities.",
        tool_calls: [
          {
            id: "call_oslo",
            type: "function",
            function: { name: "weather", arguments: '{"city":"Oslo"}' },
            extra_content: { google: { thought_signature: "c2lnLWNhbGw=" } },
          },
        ],
      });
    });
  });

  describe("with @ai-sdk/mistral (a Magistral model's thinking)", () => {
    it("sends back the thinking chunk, the text and the call", async () => {
      const body = await secondRequest(
        aiSdkModel(createMistral({ baseURL: `${server.origin}/v1`, apiKey: "test" })("magistral-medium-latest") as AiSdkLanguageModel),
        [
          chatChunk({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "Two cities." }] }] }),
          chatChunk({ content: "Checking." }),
          chatChunk({ tool_calls: [{ id: "abcdefghi", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] }),
          chatChunk({}, "tool_calls", chatUsage),
          { data: "[DONE]" },
        ],
        [chatChunk({ role: "assistant", content: "Cold in Oslo." }), chatChunk({}, "stop", chatUsage), { data: "[DONE]" }],
      );
      expect((body.messages as unknown[])[1]).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: [{ type: "text", text: "Two cities." }], closed: true },
          { type: "text", text: "Checking." },
        ],
        tool_calls: [{ id: "abcdefghi", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
      });
    });
  });
});
