import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiSdkModel, type AiSdkLanguageModel } from "../../src/ai-sdk/index.js";
import { CHAT_SECOND, CHAT_USAGE, chatChunk, secondRequest } from "../support/round-trip.js";
import { startWireServer, type WireServer } from "../support/wire-server.js";

// The Chat Completions-shaped providers, each against a local server streaming its format; the
// first reply's state is judged on the second request, as the package itself builds it.
let server: WireServer;
beforeAll(async () => {
  server = await startWireServer();
});
afterAll(() => server.close());

describe("aiSdkModel", () => {
  describe("with @ai-sdk/openai (Chat Completions)", () => {
    it("sends back the text and the call under the id the model gave", async () => {
      const body = await secondRequest(
        server,
        aiSdkModel(createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test" }).chat("gpt-test") as AiSdkLanguageModel),
        [
          chatChunk({ role: "assistant", content: "Checking." }),
          chatChunk({ tool_calls: [{ index: 0, id: "call_oslo", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] }),
          chatChunk({}, "tool_calls", CHAT_USAGE),
          { data: "[DONE]" },
        ],
        CHAT_SECOND,
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
        server,
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
          chatChunk({}, "tool_calls", CHAT_USAGE),
          { data: "[DONE]" },
        ],
        CHAT_SECOND,
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
        server,
        aiSdkModel(createMistral({ baseURL: `${server.origin}/v1`, apiKey: "test" })("magistral-medium-latest") as AiSdkLanguageModel),
        [
          chatChunk({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "Two cities." }] }] }),
          chatChunk({ content: "Checking." }),
          chatChunk({ tool_calls: [{ id: "abcdefghi", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] }),
          chatChunk({}, "tool_calls", CHAT_USAGE),
          { data: "[DONE]" },
        ],
        CHAT_SECOND,
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
