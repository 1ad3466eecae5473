/**
 * A stream cut off cleanly (the connection closed before the provider said the turn was over)
 * is an error, not a normal end: the turn finishes with `error`, and a call still streaming
 * when it was cut never runs.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool, ok, runAgent } from "../../src/index.js";
import type { Model } from "../../src/agent/model/model.js";
import { anthropic, openai, TruncatedStreamError } from "../../src/providers/index.js";
import { z } from "zod";
import { anthropicEvents as a, chatChunk, chatToolDelta, responses as r, type SseFrame } from "../support/fake-streams.js";
import type { StreamingApi } from "../support/fake-providers.js";
import { collect, startFake, type Fake } from "../support/model-harness.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const models: Record<StreamingApi, () => Model> = {
  chat: () => openai.chatModel({ client: fake.openai, model: "gpt-4.1" }),
  responses: () => openai.responsesModel({ client: fake.openai, model: "gpt-4.1" }),
  anthropic: () => anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6" }),
};

/** Each API's stream, cut in the middle of a call's arguments. */
const cutMidCall: Record<StreamingApi, readonly SseFrame[]> = {
  chat: [chatChunk({ role: "assistant", content: "" }), chatToolDelta(0, '{"city":"Pa', { id: "call_1", name: "weather" })],
  responses: [r.created(), r.callAdded(0, "call_1", "weather"), r.argsDelta(0, '{"city":"Pa')],
  anthropic: [a.start(), a.toolStart(0, "toolu_1", "weather"), a.json(0, '{"city":"Pa')],
};

/** Each API's stream, cut after some text. */
const cutMidText: Record<StreamingApi, readonly SseFrame[]> = {
  chat: [chatChunk({ role: "assistant", content: "" }), chatChunk({ content: "It is 21" })],
  responses: [r.created(), r.text("It is 21")],
  anthropic: [a.start(), a.textStart(0), a.text(0, "It is 21")],
};

const expected: Record<StreamingApi, string> = {
  chat: "the OpenAI Chat Completions stream ended before `finish_reason`: the turn was cut off",
  responses: "the OpenAI Responses stream ended before `response.completed`: the turn was cut off",
  anthropic: "the Anthropic Messages stream ended before `message_stop`: the turn was cut off",
};

describe.each(["chat", "responses", "anthropic"] as const)("%s model", (api) => {
  describe("when the stream is cut off in the middle of a tool call", () => {
    it("finishes with error, a TruncatedStreamError, and hands over no call", async () => {
      fake.server.queueStream(api, { frames: cutMidCall[api] });

      const events = await collect(models[api]());

      expect(events).toEqual([{ type: "finish", reason: "error", error: expect.any(TruncatedStreamError) }]);
      expect((events[0] as { error: Error }).error.message).toBe(expected[api]);
    });

    it("ends the agent run with `error` and never runs the tool", async () => {
      fake.server.queueStream(api, { frames: cutMidCall[api] });
      const ran: unknown[] = [];
      const weather = defineTool({
        name: "weather",
        description: "",
        schema: z.object({ city: z.string() }),
        handler: (args) => {
          ran.push(args);
          return ok(21);
        },
      });

      const result = await runAgent({ model: models[api](), tools: [weather], messages: [{ role: "user", content: "Weather in Paris?" }] });

      expect(result).toMatchObject({ haltedReason: "error", metadata: { error: expect.any(TruncatedStreamError) } });
      expect(result.messages).toEqual([{ role: "user", content: "Weather in Paris?" }]);
      expect(ran).toEqual([]);
    });
  });

  describe("when a text-only stream is cut off", () => {
    it("keeps the text it streamed, then finishes with error", async () => {
      fake.server.queueStream(api, { frames: cutMidText[api] });

      expect(await collect(models[api]())).toEqual([
        { type: "text_delta", text: "It is 21" },
        { type: "finish", reason: "error", error: expect.any(TruncatedStreamError) },
      ]);
    });
  });
});
