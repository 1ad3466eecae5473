import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type HandlerResult, MemoryJournalStore, runAgent, streamAgent } from "../../src/index.js";
import { aiSdkModel, type AiSdkLanguageModel } from "../../src/ai-sdk/index.js";
import { replayOf } from "../../src/agent/journal/journal-replay.js";
import { ASK } from "../support/round-trip.js";
import { startWireServer, type WireFrame, type WireServer } from "../support/wire-server.js";

let server: WireServer;
beforeAll(async () => {
  server = await startWireServer();
});
afterAll(() => server.close());

const chunk = (parts: unknown[], finishReason?: string): WireFrame => ({
  data: {
    candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) }],
    ...(finishReason === undefined ? {} : { usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 } }),
  },
});

describe("replayOf", () => {
  it("plays each text block's state back where the block ended, among the provider items", () => {
    const item = { type: "web_search_call", id: "ws_1", status: "completed" };
    const events = replayOf({
      message: {
        role: "assistant",
        content: "Looking. Found.",
        providerItems: [{ provider: "openai-responses", item, textOffset: 8 }],
        textState: [
          { provider: "openai-responses", data: { id: "msg_1" }, textEnd: 8 },
          { provider: "openai-responses", data: { id: "msg_2" }, textEnd: 15 },
        ],
        toolCalls: [{ id: "c1", name: "weather", arguments: {}, providerState: { provider: "openai-responses", data: { id: "fc_1" } } }],
      },
      finishReason: "tool_calls",
      partial: false,
    });
    expect(events).toEqual([
      { type: "text_delta", text: "Looking." },
      { type: "provider_item", provider: "openai-responses", item },
      { type: "text_state", provider: "openai-responses", data: { id: "msg_1" } },
      { type: "text_delta", text: " Found." },
      { type: "text_state", provider: "openai-responses", data: { id: "msg_2" } },
      { type: "tool_call", call: { id: "c1", name: "weather", arguments: {}, providerState: { provider: "openai-responses", data: { id: "fc_1" } } } },
      { type: "finish", reason: "tool_calls" },
    ]);
  });
});

describe("a journaled run restarted after a Gemini 3 reply", () => {
  it("sends the reply's signatures back from the journal, as the live run would have", async () => {
    const journal = { store: new MemoryJournalStore(), conversationKey: "gemini", owner: "p1" };
    const model = aiSdkModel(createGoogleGenerativeAI({ baseURL: `${server.origin}/v1beta`, apiKey: "test" })("gemini-3-pro-preview") as AiSdkLanguageModel);
    // The tool never settles: the first process stops while it runs, its reply on record.
    const weather = defineTool({
      name: "weather",
      description: "",
      schema: z.object({ city: z.string() }),
      handler: () => new Promise<HandlerResult>(() => {}),
    });
    server.reply(
      [
        chunk([{ text: "Checking." }]),
        chunk([{ text: "", thoughtSignature: "c2lnLXRleHQ=" }]),
        chunk([{ functionCall: { id: "call-oslo", name: "weather", args: { city: "Oslo" } }, thoughtSignature: "c2lnLWNhbGw=" }], "STOP"),
      ],
      [chunk([{ text: "Cold in Oslo." }], "STOP")],
    );
    const before = server.requests.length;
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model, tools: [weather], messages: ASK, journal }).subscribe((e) => {
        if (e.type === "tool_event" && e.event.type === "tool_execution_started")
          queueMicrotask(() => {
            subscription.unsubscribe();
            resolve();
          });
      });
    });
    const result = await runAgent({ model, tools: [weather], messages: ASK, journal });
    expect(result.haltedReason).toBe("completed");
    // The first turn came from the journal: the server saw it asked once, then the next turn.
    expect(server.requests.length - before).toBe(2);
    const contents = server.requests[before + 1]?.body.contents as { role: string; parts: unknown[] }[];
    expect(contents[1]).toEqual({
      role: "model",
      parts: [
        { text: "Checking.", thoughtSignature: "c2lnLXRleHQ=" },
        { functionCall: { id: "call-oslo", name: "weather", args: { city: "Oslo" } }, thoughtSignature: "c2lnLWNhbGw=" },
      ],
    });
  });
});
