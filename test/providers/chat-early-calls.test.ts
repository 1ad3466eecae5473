/**
 * Chat Completions tool calls start while the model still streams, as Responses and Anthropic
 * calls do: a call is handed over once its arguments parse as a whole JSON object, once the
 * call at the next index begins, or once its index brings a new id.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { map, type Observable, takeWhile } from "rxjs";
import { z } from "zod";
import { defineTool, ok, streamAgent, type AgentEvent } from "../../src/index.js";
import { openai } from "../../src/providers/index.js";
import { CHAT_DONE, chatChunk, chatToolDelta } from "../support/fake-streams.js";
import { collect, startFake, unsubscribeAfter, type Fake } from "../support/model-harness.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const model = () => openai.chatModel({ client: fake.openai, model: "gpt-4.1" });

describe("openai.chatModel", () => {
  describe("when a call's arguments parse as a whole JSON object", () => {
    it("hands the call over at once, before the stream finishes", async () => {
      fake.server.queueStream("chat", { frames: [chatToolDelta(0, '{"city":', { id: "call_a", name: "weather" }), chatToolDelta(0, '"Paris"}')], hang: true });

      const seen = await unsubscribeAfter(model(), (event) => event.type === "tool_call");

      expect(seen).toEqual([{ type: "tool_call", call: { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } }]);
    });

    it("starts the tool while the model still streams, in the agent loop", async () => {
      fake.server.queueStream("chat", {
        frames: [chatToolDelta(0, '{"city":"Paris"}', { id: "call_a", name: "weather" }), chatChunk({ content: "" })],
        hang: true,
      });
      const weather = defineTool({ name: "weather", description: "", schema: z.object({ city: z.string() }), handler: ({ city }) => ok({ city }) });

      // The stream hangs without a finish chunk: the tool can only have run because it started early.
      const events = await lastEvents(
        streamAgent({ model: model(), tools: [weather], messages: [{ role: "user", content: "Weather?" }] }),
        (event) => event.type === "tool_event" && event.event.type === "tool_result_encoded",
      );

      expect(events.at(-1)).toMatchObject({ type: "tool_event", event: { type: "tool_result_encoded", toolCallId: "call_a", content: '{"city":"Paris"}' } });
    });
  });

  describe("when the next index begins", () => {
    it("hands over the call before it, even when its arguments are not a JSON object", async () => {
      fake.server.queueStream("chat", {
        frames: [chatToolDelta(0, "", { id: "call_a", name: "now" }), chatToolDelta(1, '{"ci', { id: "call_b", name: "weather" })],
        hang: true,
      });

      const seen = await unsubscribeAfter(model(), (event) => event.type === "tool_call");

      expect(seen).toEqual([{ type: "tool_call", call: { id: "call_a", name: "now", arguments: {}, rawArguments: "" } }]);
    });
  });

  describe("when an OpenAI-compatible server sends whole calls at index 0 with distinct ids", () => {
    it("keeps them apart: a new id at an index is a new call", async () => {
      fake.server.queueStream("chat", {
        frames: [
          chatToolDelta(0, '{"city":"Paris"}', { id: "call_a", name: "weather" }),
          chatToolDelta(0, '{"city":"Oslo"}', { id: "call_b", name: "weather" }),
          chatToolDelta(0, "not json", { id: "call_c", name: "weather" }),
          chatToolDelta(0, "", { id: "call_d", name: "now" }),
          chatChunk({}, "tool_calls"),
          CHAT_DONE,
        ],
      });

      expect(await collect(model())).toEqual([
        { type: "tool_call", call: { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
        { type: "tool_call", call: { id: "call_b", name: "weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' } },
        { type: "tool_call", call: { id: "call_c", name: "weather", arguments: {}, rawArguments: "not json" } },
        { type: "tool_call", call: { id: "call_d", name: "now", arguments: {}, rawArguments: "" } },
        { type: "finish", reason: "tool_calls" },
      ]);
    });
  });
});

/** The run's events up to the first that matches `last` (then unsubscribes). */
function lastEvents(events$: Observable<AgentEvent>, last: (event: AgentEvent) => boolean): Promise<AgentEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: AgentEvent[] = [];
    events$
      .pipe(
        takeWhile((event) => !last(event), true),
        map((event) => seen.push(event)),
      )
      .subscribe({ error: reject, complete: () => resolve(seen) });
  });
}
