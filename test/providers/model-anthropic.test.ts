/**
 * anthropic.messagesModel through the real `@anthropic-ai/sdk`, against a local server speaking
 * the Messages API streaming wire format (named SSE events, pings included).
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/tool/message.js";
import { anthropic } from "../../src/providers/index.js";
import { anthropicEvents as e, anthropicTextTurn } from "../support/fake-streams.js";
import { collect, errorOf, requestFor, settle, startFake, unsubscribeAfter, waitFor, weather, type Fake } from "../support/model-harness.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const model = (extra: Record<string, unknown> = {}) =>
  anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6", max_tokens: 1024, ...extra });

describe("anthropic.messagesModel", () => {
  it("streams text deltas as they come, then finish", async () => {
    fake.server.queueStream("anthropic", { frames: [e.ping(), ...anthropicTextTurn(["It is ", "21°C."])] });

    expect(await collect(model())).toEqual([
      { type: "text_delta", text: "It is " },
      { type: "text_delta", text: "21°C." },
      { type: "usage", usage: { inputTokens: 12, outputTokens: 8 }, responseId: "msg_fake_stream", responseModel: "claude-fake" },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("sends system separately, tool results grouped in one user message, the tools, stream: true and the user's parameters", async () => {
    const conversation: Message[] = [
      { role: "system", content: "Answer in French." },
      { role: "user", content: "Weather in Paris and Oslo?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "toolu_1", name: "weather", arguments: { city: "Paris" } },
          { id: "toolu_2", name: "weather", arguments: { city: "Oslo" } },
        ],
      },
      { role: "tool", toolCallId: "toolu_1", name: "weather", content: '{"tempC":21}', isError: false },
      { role: "tool", toolCallId: "toolu_2", name: "weather", content: '{"error":"down"}', isError: true },
    ];
    await collect(model({ system: "You are a weather bot.", temperature: 0 }), requestFor(conversation).request);

    expect(fake.server.requests[0]?.body).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 1024,
      temperature: 0,
      stream: true,
      system: "You are a weather bot.\n\nAnswer in French.",
      messages: [
        { role: "user", content: "Weather in Paris and Oslo?" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
            { type: "tool_use", id: "toolu_2", name: "weather", input: { city: "Oslo" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: '{"tempC":21}', is_error: false },
            { type: "tool_result", tool_use_id: "toolu_2", content: '{"error":"down"}', is_error: true },
          ],
        },
      ],
      tools: anthropic.toTools([weather]),
    });
  });

  it("sends max_tokens 4096 when none is given (the API requires one)", async () => {
    await collect(anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6" }));
    expect(fake.server.requests[0]?.body).toMatchObject({ max_tokens: 4096 });
  });

  describe("when the model calls tools", () => {
    it("puts each tool_use's input_json_deltas together; interleaved blocks by index; malformed JSON kept as rawArguments; no deltas is {}", async () => {
      fake.server.queueStream("anthropic", {
        frames: [
          e.start(),
          e.textStart(0),
          e.text(0, "Checking."),
          e.stop(0),
          e.toolStart(1, "toolu_a", "weather"),
          e.toolStart(2, "toolu_b", "weather"),
          e.json(1, '{"city"'),
          e.json(2, '{"city": "Os'),
          e.json(1, ':"Paris"}'),
          e.stop(1),
          e.stop(2),
          e.toolStart(3, "toolu_c", "now"),
          e.stop(3),
          e.delta("tool_use"),
          e.messageStop(),
        ],
      });

      expect(await collect(model())).toEqual([
        { type: "text_delta", text: "Checking." },
        { type: "tool_call", call: { id: "toolu_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
        { type: "tool_call", call: { id: "toolu_b", name: "weather", arguments: {}, rawArguments: '{"city": "Os' } },
        { type: "tool_call", call: { id: "toolu_c", name: "now", arguments: {} } },
        { type: "usage", usage: { inputTokens: 12, outputTokens: 8 }, responseId: "msg_fake_stream", responseModel: "claude-fake" },
        { type: "finish", reason: "tool_calls" },
      ]);
    });

    it("hands a call over as soon as its block closes, while the message still streams", async () => {
      fake.server.queueStream("anthropic", { frames: [e.start(), e.toolStart(0, "toolu_a", "weather"), e.json(0, '{"city":"Paris"}'), e.stop(0)], hang: true });

      const seen = await unsubscribeAfter(model(), (event) => event.type === "tool_call");

      expect(seen).toEqual([{ type: "tool_call", call: { id: "toolu_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } }]);
      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("stop_reason", () => {
    it.each([
      ["end_turn", "stop"],
      ["stop_sequence", "stop"],
      ["max_tokens", "length"],
      ["refusal", "content_filter"],
      ["tool_use", "tool_calls"],
    ] as const)("%s finishes as %s", async (wire, reason) => {
      fake.server.queueStream("anthropic", { frames: anthropicTextTurn(["…"], wire) });
      expect((await collect(model())).at(-1)).toEqual({ type: "finish", reason });
    });
  });

  describe("when unsubscribed mid-stream", () => {
    it("aborts the HTTP stream: the server sees the connection close", async () => {
      fake.server.queueStream("anthropic", { frames: [e.start(), e.textStart(0), e.text(0, "Thinking")], hang: true });

      await unsubscribeAfter(model(), (event) => event.type === "text_delta");

      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("when the request's signal aborts mid-stream", () => {
    it("errors with the signal's reason and closes the connection", async () => {
      fake.server.queueStream("anthropic", { frames: [e.start()], hang: true });
      const { request, controller } = requestFor();
      const errored = errorOf(model(), request);
      await waitFor(() => fake.server.streams.length === 1);

      const reason = new Error("cancelled");
      controller.abort(reason);

      expect(await errored).toBe(reason);
      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("errors", () => {
    it("an error status errors with the SDK's APIError", async () => {
      fake.server.queueStream("anthropic", { status: 400, error: { type: "invalid_request_error", message: "max_tokens: too large" } });
      const error = await errorOf(model());
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining("max_tokens: too large") });
    });

    it("an error event in the stream (overloaded_error) errors with the SDK's APIError, after the events before it", async () => {
      fake.server.queueStream("anthropic", { frames: [e.start(), e.textStart(0), e.text(0, "Hel"), e.error("overloaded_error", "Overloaded")] });

      const { events, error } = await settle(model());

      expect(events).toEqual([{ type: "text_delta", text: "Hel" }]);
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect((error as Error).message).toMatch(/Overloaded/);
    });
  });
});
