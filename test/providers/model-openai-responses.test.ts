/**
 * openai.responsesModel through the real `openai` SDK, against a local server speaking the
 * Responses API streaming wire format (named SSE events).
 */
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/tool/message.js";
import { openai } from "../../src/providers/index.js";
import { responses as r, responsesTextTurn } from "../support/fake-streams.js";
import { collect, errorOf, requestFor, settle, startFake, unsubscribeAfter, waitFor, weather, type Fake } from "../support/model-harness.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const model = () => openai.responsesModel({ client: fake.openai, model: "gpt-4.1", instructions: "Be brief." });

describe("openai.responsesModel", () => {
  it("streams text deltas as they come, then finish stop", async () => {
    fake.server.queueStream("responses", { frames: responsesTextTurn(["It is ", "21°C."]) });

    expect(await collect(model())).toEqual([
      { type: "text_delta", text: "It is " },
      { type: "text_delta", text: "21°C." },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("sends the whole conversation as input (stateless), the flat function tools, stream: true and the user's parameters", async () => {
    const conversation: Message[] = [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "Checking.",
        toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }],
      },
      { role: "tool", toolCallId: "call_1", name: "weather", content: '{"tempC":21}', isError: false },
    ];
    await collect(model(), requestFor(conversation).request);

    expect(fake.server.requests[0]?.body).toEqual({
      model: "gpt-4.1",
      instructions: "Be brief.",
      stream: true,
      input: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: "Checking." },
        { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: '{"tempC":21}' },
      ],
      tools: openai.toResponsesTools([weather]),
    });
  });

  describe("when the model calls several tools with interleaved argument deltas", () => {
    it("emits each call when its item is done, call_id as id, malformed JSON kept as rawArguments", async () => {
      fake.server.queueStream("responses", {
        frames: [
          r.created(),
          r.callAdded(0, "call_a", "weather"),
          r.callAdded(1, "call_b", "weather"),
          r.argsDelta(0, '{"city"'),
          r.argsDelta(1, '{"city": "Os'),
          r.argsDelta(0, ':"Paris"}'),
          r.callDone(0, "call_a", "weather", '{"city":"Paris"}'),
          r.callDone(1, "call_b", "weather", '{"city": "Os'),
          r.completed(),
        ],
      });

      expect(await collect(model())).toEqual([
        {
          type: "tool_call",
          call: {
            id: "call_a",
            name: "weather",
            arguments: { city: "Paris" },
            rawArguments: '{"city":"Paris"}',
            metadata: { itemId: "fc_0" },
            providerState: { provider: "openai-responses", data: { id: "fc_0" } },
          },
        },
        {
          type: "tool_call",
          call: {
            id: "call_b",
            name: "weather",
            arguments: {},
            rawArguments: '{"city": "Os',
            metadata: { itemId: "fc_1" },
            providerState: { provider: "openai-responses", data: { id: "fc_1" } },
          },
        },
        { type: "finish", reason: "tool_calls" },
      ]);
    });

    it("hands a call over as soon as its item is done, while the response still streams", async () => {
      fake.server.queueStream("responses", {
        frames: [r.created(), r.callAdded(0, "call_a", "weather"), r.argsDelta(0, "{}"), r.callDone(0, "call_a", "weather", "{}"), r.text("still talking", 1)],
        hang: true,
      });

      const seen = await unsubscribeAfter(model(), (e) => e.type === "tool_call");

      expect(seen).toEqual([
        {
          type: "tool_call",
          call: {
            id: "call_a",
            name: "weather",
            arguments: {},
            rawArguments: "{}",
            metadata: { itemId: "fc_0" },
            providerState: { provider: "openai-responses", data: { id: "fc_0" } },
          },
        },
      ]);
      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("finish", () => {
    it.each([
      ["max_output_tokens", "length"],
      ["content_filter", "content_filter"],
    ] as const)("an incomplete response (%s) finishes as %s", async (reason, finish) => {
      fake.server.queueStream("responses", { frames: [r.created(), r.text("Once upon"), r.incomplete(reason)] });
      expect((await collect(model())).at(-1)).toEqual({ type: "finish", reason: finish });
    });
  });

  describe("when unsubscribed mid-stream", () => {
    it("aborts the HTTP stream: the server sees the connection close", async () => {
      fake.server.queueStream("responses", { frames: [r.created(), r.text("Thinking")], hang: true });

      await unsubscribeAfter(model(), (e) => e.type === "text_delta");

      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("when the request's signal aborts mid-stream", () => {
    it("errors with the signal's reason and closes the connection", async () => {
      fake.server.queueStream("responses", { frames: [r.created()], hang: true });
      const { request, controller } = requestFor();
      const errored = errorOf(model(), request);
      await waitFor(() => fake.server.streams.length === 1);

      controller.abort("cancelled by the host");

      expect(await errored).toBe("cancelled by the host");
      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("errors", () => {
    it("an error status errors with the SDK's APIError", async () => {
      fake.server.queueStream("responses", { status: 401, error: { type: "invalid_api_key", message: "Incorrect API key" } });
      const error = await errorOf(model());
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error).toMatchObject({ status: 401 });
    });

    it("a failed response errors with its code and message, after the events before it", async () => {
      fake.server.queueStream("responses", { frames: [r.created(), r.text("Hel"), r.failed("server_error", "The model crashed")] });

      const { events, error } = await settle(model());

      expect(events).toEqual([{ type: "text_delta", text: "Hel" }]);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ code: "server_error", message: "OpenAI response failed (server_error): The model crashed" });
    });

    it("an error event errors with its code and message", async () => {
      fake.server.queueStream("responses", { frames: [r.created(), r.error("rate_limit_exceeded", "Slow down")] });
      expect(await errorOf(model())).toMatchObject({ code: "rate_limit_exceeded", message: "OpenAI response failed (rate_limit_exceeded): Slow down" });
    });
  });
});
