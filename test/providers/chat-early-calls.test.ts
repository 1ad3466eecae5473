/**
 * Chat Completions tool calls start while the model still streams, as Responses and Anthropic
 * calls do: a call is handed over once its arguments parse as a whole JSON object, or once its
 * index brings a new id, and every call before it is out. A later index beginning is no proof:
 * the format lets a stream interleave calls by index.
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

  describe("when the stream interleaves calls by index (ids only in the first delta of each)", () => {
    it("hands each call over whole, in index order, however their deltas interleave", async () => {
      fake.server.queueStream("chat", {
        frames: [
          chatToolDelta(0, '{"city":', { id: "call_a", name: "weather" }),
          chatToolDelta(1, '{"tz":"UTC"}', { id: "call_b", name: "now" }),
          chatToolDelta(0, '"Paris"}'),
          chatChunk({}, "tool_calls"),
          CHAT_DONE,
        ],
      });

      expect((await collect(model())).filter((e) => e.type !== "tool_input_started" && e.type !== "tool_input_delta")).toEqual([
        { type: "tool_call", call: { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
        { type: "tool_call", call: { id: "call_b", name: "now", arguments: { tz: "UTC" }, rawArguments: '{"tz":"UTC"}' } },
        { type: "finish", reason: "tool_calls" },
      ]);
    });

    it("starts the first call once its own JSON is complete, while the second still streams", async () => {
      fake.server.queueStream("chat", {
        frames: [
          chatToolDelta(0, '{"city":', { id: "call_a", name: "weather" }),
          chatToolDelta(1, '{"tz":', { id: "call_b", name: "now" }),
          chatToolDelta(0, '"Paris"}'),
        ],
        hang: true,
      });

      const seen = await unsubscribeAfter(model(), (event) => event.type === "tool_call");

      expect(seen).toEqual([{ type: "tool_call", call: { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } }]);
    });

    it("holds a call whose text is not a whole object until the choice finishes, and the calls after it with it", async () => {
      fake.server.queueStream("chat", {
        frames: [
          chatToolDelta(0, "", { id: "call_a", name: "now" }),
          chatToolDelta(1, '{"city":"Oslo"}', { id: "call_b", name: "weather" }),
          chatChunk({}, "tool_calls"),
          CHAT_DONE,
        ],
      });

      expect((await collect(model())).filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && e.call)).toEqual([
        { id: "call_a", name: "now", arguments: {}, rawArguments: "" },
        { id: "call_b", name: "weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' },
      ]);
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
