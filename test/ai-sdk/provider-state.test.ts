import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiSdkModel, type AiSdkLanguageModel } from "../../src/ai-sdk/index.js";
import { sseOf } from "../../src/testing/server/provider-frames.js";
import { ANTHROPIC_FIRST, ANTHROPIC_REPLAYED, ANTHROPIC_SECOND, secondRequest } from "../support/round-trip.js";
import { startWireServer, type WireFrame, type WireServer } from "../support/wire-server.js";

// Each AI SDK provider package against a local server streaming its own wire format: the state
// the first reply carried (signatures, item ids, encrypted reasoning) is judged on the second
// request, as the package itself builds it.
let server: WireServer;
beforeAll(async () => {
  server = await startWireServer();
});
afterAll(() => server.close());

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
        server,
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
      const body = await secondRequest(server, responses(), first, second);
      expect((body.input as unknown[]).slice(1)).toEqual([
        { type: "item_reference", id: "rs_1" },
        { type: "item_reference", id: "msg_1" },
        { type: "function_call", call_id: "call_oslo", name: "weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call_output", call_id: "call_oslo", output: '{"city":"Oslo","tempC":21}' },
      ]);
    });

    it("sends the reasoning back whole, its encrypted content included (store: false)", async () => {
      const body = await secondRequest(server, responses({ providerOptions: { openai: { store: false } } }), first, second);
      expect((body.input as unknown[]).slice(1)).toEqual([
        { type: "reasoning", id: "rs_1", encrypted_content: "enc_1", summary: [{ type: "summary_text", text: "Two cities." }] },
        { role: "assistant", content: "Checking." },
        { type: "function_call", call_id: "call_oslo", name: "weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call_output", call_id: "call_oslo", output: '{"city":"Oslo","tempC":21}' },
      ]);
    });
  });

  describe("with @ai-sdk/anthropic (Messages)", () => {
    it("sends back the signed thinking block and the redacted one", async () => {
      const model = aiSdkModel(createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: "test" })("claude-sonnet-4-5") as AiSdkLanguageModel);
      const body = await secondRequest(server, model, ANTHROPIC_FIRST, ANTHROPIC_SECOND);
      expect((body.messages as unknown[])[1]).toEqual(ANTHROPIC_REPLAYED);
    });
  });
});
