import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type AgentResult, type Model } from "../../src/index.js";
import { anthropic, openai } from "../../src/providers/index.js";
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
  schema: z.object({ city: z.string(), unit: z.enum(["C", "F"]) }),
  handler: ({ city, unit }) => {
    seen.push(city);
    return ok({ city, temp: 21, unit });
  },
});

const models: Record<string, () => Model> = {
  "OpenAI Chat Completions": () =>
    openai.chatModel({ client: new OpenAI({ baseURL: server.openaiBaseURL, apiKey: "test", maxRetries: 0 }), model: "gpt-test" }),
  "OpenAI Responses": () => openai.responsesModel({ client: new OpenAI({ baseURL: server.openaiBaseURL, apiKey: "test", maxRetries: 0 }), model: "gpt-test" }),
  Anthropic: () =>
    anthropic.messagesModel({ client: new Anthropic({ baseURL: server.anthropicBaseURL, apiKey: "test", maxRetries: 0 }), model: "claude-test" }),
};

describe("startProviderServer", () => {
  for (const [name, model] of Object.entries(models)) {
    it(`plays scripted streamed turns to the real SDK: ${name}`, async () => {
      seen.length = 0;
      const before = server.requests.length;
      server.reply(
        {
          text: "Checking both cities at once.",
          calls: [
            { id: "w1", name: "weather", arguments: { city: "Oslo", unit: "C" } },
            { id: "w2", name: "weather", arguments: { city: "Lisbon", unit: "F" } },
          ],
          pieces: 4,
          usage: { inputTokens: 30, outputTokens: 20 },
        },
        { text: "Cold in Oslo, warm in Lisbon.", usage: { inputTokens: 50, outputTokens: 10 } },
      );
      const result: AgentResult = await runAgent({ model: model(), tools: [weather], messages: [{ role: "user", content: "Weather?" }] });
      expect(result.haltedReason).toBe("completed");
      expect(seen.sort()).toEqual(["Lisbon", "Oslo"]);
      expect(result.usage).toMatchObject({ inputTokens: 80, outputTokens: 30 });
      expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: "Cold in Oslo, warm in Lisbon." });
      expect(issuesOf(result.messages)).toEqual(NONE);
      // The second request carried the calls and their answers back, as the SDK sent them.
      expect(server.requests.length - before).toBe(2);
      expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("Lisbon");
    });
  }

  // Issue 31: reasoning frames, read by the real SDKs, kept by the loop and sent back to the API that wrote them.
  const item = (n: string) => ({ type: "reasoning", id: `rs_${n}`, summary: [{ type: "summary_text", text: "Oslo first." }], encrypted_content: `enc_${n}` });
  /** What the loop keeps of the reply numbered `n`, and what the next request carries of it. */
  const reasoned: Record<string, (n: string) => { kept: unknown; sent: unknown }> = {
    "OpenAI Responses": (n) => ({ kept: { text: "Oslo first.", provider: "openai-responses", data: item(n) }, sent: item(n) }),
    Anthropic: (n) => ({
      kept: { text: "Oslo first.", provider: "anthropic", data: { type: "thinking", signature: `sig_${n}` } },
      sent: { type: "thinking", thinking: "Oslo first.", signature: `sig_${n}` },
    }),
    "OpenAI Chat Completions": () => ({ kept: undefined, sent: undefined }),
  };
  for (const [name, model] of Object.entries(models)) {
    it(`streams reasoning the real SDK reads, which goes back on the next request: ${name}`, async () => {
      const before = server.requests.length;
      server.reply({ reasoning: "Oslo first.", calls: [{ id: "r1", name: "weather", arguments: { city: "Oslo", unit: "C" } }] }, { text: "Cold in Oslo." });
      const result = await runAgent({ model: model(), tools: [weather], messages: [{ role: "user", content: "Weather?" }] });
      expect(result.haltedReason).toBe("completed");
      const turn = result.messages[1];
      const reasoning = turn?.role === "assistant" ? turn.reasoning : undefined;
      // The server numbers its replies: read the number off what the SDK got.
      const n = /_(\d+)"/.exec(JSON.stringify(reasoning?.[0]?.data ?? {}))?.[1] ?? "";
      const { kept, sent } = (reasoned[name] as (n: string) => { kept: unknown; sent: unknown })(n);
      expect(reasoning).toEqual(kept === undefined ? undefined : [kept]);
      expect(issuesOf(result.messages)).toEqual(NONE);
      expect(server.requests.length - before).toBe(2);
      if (sent !== undefined) expect(JSON.stringify(server.requests.at(-1)?.body)).toContain(JSON.stringify(sent));
    });
  }

  it("answers a request it has no reply for with the provider's error, which the SDK raises", async () => {
    const result = await runAgent({ model: models["OpenAI Chat Completions"]?.() as Model, tools: [weather], messages: [{ role: "user", content: "hi" }] });
    expect(result.haltedReason).toBe("error");
    expect(String((result as { metadata: { error: unknown } }).metadata.error)).toContain("no scripted reply left");
  });
});
