/**
 * openai.chatModel through the real `openai` SDK, against a local server speaking the Chat
 * Completions streaming wire format.
 */
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../src/tool/message.js";
import { openai } from "../../src/providers/index.js";
import { CHAT_DONE, chatChunk, chatTextTurn, chatToolDelta } from "../support/fake-streams.js";
import { collect, errorOf, requestFor, settle, startFake, unsubscribeAfter, waitFor, weather, type Fake } from "../support/model-harness.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

const model = () => openai.chatModel({ client: fake.openai, model: "gpt-4.1", temperature: 0 });

describe("openai.chatModel", () => {
  it("streams text deltas as they come, then finish", async () => {
    fake.server.queueStream("chat", { frames: chatTextTurn(["It is ", "21°C."]) });

    expect(await collect(model())).toEqual([
      { type: "text_delta", text: "It is " },
      { type: "text_delta", text: "21°C." },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("sends the conversation as Chat messages, the tools, stream: true and the user's own parameters", async () => {
    const conversation: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" } }] },
      { role: "tool", toolCallId: "call_1", name: "weather", content: '{"tempC":21}', isError: false },
    ];
    await collect(model(), requestFor(conversation).request);

    expect(fake.server.requests[0]?.body).toEqual({
      model: "gpt-4.1",
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
      messages: openai.toChatMessages(conversation),
      tools: openai.toTools([weather]),
    });
  });

  it("sends no tools parameter when the turn offers none", async () => {
    await collect(model(), requestFor(undefined, []).request);
    expect(fake.server.requests[0]?.body).not.toHaveProperty("tools");
  });

  describe("when the model calls several tools, one after another", () => {
    it("assembles each call by index and emits it whole, in index order, with the raw text; malformed JSON keeps the call", async () => {
      fake.server.queueStream("chat", {
        frames: [
          chatChunk({ role: "assistant", content: "Checking." }),
          chatToolDelta(0, "", { id: "call_a", name: "weather" }),
          chatToolDelta(0, '{"city"'),
          chatToolDelta(0, ':"Paris"}'),
          chatToolDelta(1, '{"ci', { id: "call_b", name: "weather" }),
          chatToolDelta(1, 'ty":"Oslo"}'),
          chatToolDelta(2, '{"city": "Par', { id: "call_c", name: "weather" }),
          chatChunk({}, "tool_calls"),
          CHAT_DONE,
        ],
      });

      expect(await collect(model())).toEqual([
        { type: "text_delta", text: "Checking." },
        { type: "tool_call", call: { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
        { type: "tool_call", call: { id: "call_b", name: "weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' } },
        { type: "tool_call", call: { id: "call_c", name: "weather", arguments: {}, rawArguments: '{"city": "Par' } },
        { type: "finish", reason: "tool_calls" },
      ]);
    });
  });

  it("takes a name repeated on every delta, as some compatible servers send, once; reads the usage-only chunk", async () => {
    fake.server.queueStream("chat", {
      frames: [
        chatToolDelta(0, '{"city"', { id: "call_a", name: "weather" }),
        chatToolDelta(0, ':"Paris"}', { id: "call_a", name: "weather" }),
        chatChunk({}, "tool_calls"),
        {
          data: {
            id: "chatcmpl_fake_stream",
            object: "chat.completion.chunk",
            created: 1,
            model: "gpt-fake",
            choices: [],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          },
        },
        CHAT_DONE,
      ],
    });

    expect(await collect(model())).toEqual([
      { type: "tool_call", call: { id: "call_a", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' } },
      { type: "usage", usage: { inputTokens: 1, outputTokens: 1 }, responseId: "chatcmpl_fake_stream", responseModel: "gpt-fake" },
      { type: "finish", reason: "tool_calls" },
    ]);
  });

  describe("finish_reason", () => {
    it.each([
      ["stop", "stop"],
      ["length", "length"],
      ["content_filter", "content_filter"],
      ["tool_calls", "tool_calls"],
    ] as const)("%s finishes as %s", async (wire, reason) => {
      fake.server.queueStream("chat", { frames: chatTextTurn(["…"], wire) });
      expect((await collect(model())).at(-1)).toEqual({ type: "finish", reason });
    });

    it("is tool_calls when a server says stop after tool calls", async () => {
      fake.server.queueStream("chat", { frames: [chatToolDelta(0, "{}", { id: "call_a", name: "weather" }), chatChunk({}, "stop"), CHAT_DONE] });
      expect((await collect(model())).at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
    });
  });

  describe("when unsubscribed mid-stream", () => {
    it("aborts the HTTP stream: the server sees the connection close", async () => {
      fake.server.queueStream("chat", { frames: [chatChunk({ role: "assistant", content: "Thinking" })], hang: true });

      const seen = await unsubscribeAfter(model(), (e) => e.type === "text_delta");

      expect(seen).toEqual([{ type: "text_delta", text: "Thinking" }]);
      await fake.server.streams[0]?.closedByClient;
    });
  });

  describe("when the request's signal aborts mid-stream", () => {
    it("errors with the signal's reason and closes the connection", async () => {
      fake.server.queueStream("chat", { frames: [chatChunk({ content: "Thinking" })], hang: true });
      const { request, controller } = requestFor();
      const reason = new Error("turn abandoned");

      const errored = errorOf(model(), request);
      await waitFor(() => fake.server.streams.length === 1);
      controller.abort(reason);

      expect(await errored).toBe(reason);
      await fake.server.streams[0]?.closedByClient;
    });
  });

  it("leaves no listener on the request's signal once the turn ends, so one long-lived signal can serve every turn", async () => {
    const { request } = requestFor();
    const added = vi.spyOn(request.signal, "addEventListener");
    const removed = vi.spyOn(request.signal, "removeEventListener");

    await collect(model(), request);
    await collect(model(), request);

    expect(added).toHaveBeenCalledTimes(2);
    expect(removed.mock.calls.map(([type, listener]) => [type, listener])).toEqual(added.mock.calls.map(([type, listener]) => [type, listener]));
  });

  describe("when the request's signal is already aborted", () => {
    it("errors with its reason and sends nothing", async () => {
      const { request, controller } = requestFor();
      controller.abort("too late");

      expect(await errorOf(model(), request)).toBe("too late");
      expect(fake.server.requests).toEqual([]);
    });
  });

  describe("when the provider answers with an error status", () => {
    it("errors with the SDK's APIError, status and message kept", async () => {
      fake.server.queueStream("chat", { status: 400, error: { type: "invalid_request_error", message: "messages: too long" } });

      const error = await errorOf(model());

      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining("messages: too long") });
    });
  });

  describe("when the stream carries an error", () => {
    it("errors with the SDK's APIError after the events before it", async () => {
      fake.server.queueStream("chat", { frames: [chatChunk({ content: "Hel" }), { data: { error: { type: "server_error", message: "overloaded" } } }] });

      const { events, error } = await settle(model());

      expect(events).toEqual([{ type: "text_delta", text: "Hel" }]);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as Error).message).toMatch(/overloaded/);
    });
  });
});
