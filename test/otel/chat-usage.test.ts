/**
 * The `chat` span of each model call carries the GenAI usage and response attributes the model
 * reported in its `usage` event.
 */
import { describe, expect, it } from "vitest";
import { telemetry } from "../../src/otel/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { otelHarness } from "../support/otel-harness.js";

const user = [{ role: "user" as const, content: "Hi" }];

describe("telemetry().runAgent", () => {
  describe("when the model reports usage", () => {
    it("puts gen_ai.usage.*, gen_ai.response.id and gen_ai.response.model on the chat span", async () => {
      const otel = otelHarness();
      const traced = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider, providerName: "openai", requestModel: "gpt-4.1" });
      const model = scriptedModel(
        [
          [
            { type: "text_delta", text: "Hello." },
            {
              type: "usage",
              usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 100, reasoningTokens: 3 },
              responseId: "chatcmpl_1",
              responseModel: "gpt-4.1-2025-04-14",
            },
            { type: "finish", reason: "stop" },
          ],
        ],
        { delay: 1 },
      );

      const result = await traced.runAgent({ model, tools: [], messages: user });

      expect(result.haltedReason).toBe("completed");
      expect(otel.span("chat gpt-4.1").attributes).toEqual({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4.1",
        "toolrx.turn": 0,
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 7,
        "gen_ai.usage.cache_read.input_tokens": 100,
        "gen_ai.response.id": "chatcmpl_1",
        "gen_ai.response.model": "gpt-4.1-2025-04-14",
        "gen_ai.response.finish_reasons": ["stop"],
      });
    });

    it("leaves out what is malformed instead of throwing", async () => {
      const otel = otelHarness();
      const traced = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
      const turn = [
        { type: "usage", usage: { inputTokens: -1, outputTokens: 5 }, responseId: 42 },
        { type: "finish", reason: "stop" },
      ] as never;

      // Whether the loop accepts such an event is the loop's to say; the span only leaves out what is wrong.
      await traced.runAgent({ model: scriptedModel([turn], { delay: 1 }), tools: [], messages: user });

      expect(otel.span("chat").attributes).toMatchObject({ "gen_ai.usage.output_tokens": 5 });
      expect(otel.span("chat").attributes).not.toHaveProperty("gen_ai.usage.input_tokens");
      expect(otel.span("chat").attributes).not.toHaveProperty("gen_ai.response.id");
    });
  });
});
