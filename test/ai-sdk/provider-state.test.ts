import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type Message, type Model } from "../../src/index.js";
import { aiSdkModel, type AiSdkLanguageModel } from "../../src/ai-sdk/index.js";
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
async function secondRequest(model: Model, first: readonly WireFrame[], second: readonly WireFrame[]): Promise<Record<string, unknown>> {
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
});
