import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type Model } from "../../src/index.js";
import { aiSdkModel, type AiSdkLanguageModel } from "../../src/ai-sdk/index.js";
import { startProviderServer, type ProviderServer } from "../../src/testing/server/index.js";
import { issuesOf, NONE } from "../support/conversation-issues.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());

const seen: string[] = [];
const weather = defineTool({
  name: "weather",
  description: "weather in a city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => {
    seen.push(city);
    return ok({ city, tempC: 21 });
  },
});

// The AI SDK's own provider packages, pointed at a local server that streams as the real APIs do.
const providers: Record<string, () => Model> = {
  "@ai-sdk/openai (Responses)": () => aiSdkModel(createOpenAI({ baseURL: server.openaiBaseURL, apiKey: "test" }).responses("gpt-test") as AiSdkLanguageModel),
  "@ai-sdk/openai (Chat Completions)": () => aiSdkModel(createOpenAI({ baseURL: server.openaiBaseURL, apiKey: "test" }).chat("gpt-test") as AiSdkLanguageModel),
  "@ai-sdk/anthropic": () => aiSdkModel(createAnthropic({ baseURL: `${server.anthropicBaseURL}/v1`, apiKey: "test" })("claude-test") as AiSdkLanguageModel),
};

describe("aiSdkModel over the AI SDK's provider packages", () => {
  for (const [name, model] of Object.entries(providers)) {
    it(`runs the loop on ${name}: calls streamed in pieces, usage, a conversation every provider takes`, async () => {
      seen.length = 0;
      server.reply(
        {
          text: "Checking.",
          calls: [
            { id: "w1", name: "weather", arguments: { city: "Oslo" } },
            { id: "w2", name: "weather", arguments: { city: "Lima" } },
          ],
          pieces: 4,
        },
        { text: "Cold in Oslo, warm in Lima.", usage: { inputTokens: 40, outputTokens: 9 } },
      );
      const result = await runAgent({ model: model(), tools: [weather], messages: [{ role: "user", content: "Weather?" }] });
      expect(result.haltedReason).toBe("completed");
      expect(seen.sort()).toEqual(["Lima", "Oslo"]);
      expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: "Cold in Oslo, warm in Lima." });
      expect(result.usage?.inputTokens).toBeGreaterThan(0);
      expect(issuesOf(result.messages)).toEqual(NONE);
    });
  }
});
