/**
 * Model functions report the tokens a call used as a `usage` event before `finish`, with the
 * provider's response id and the model that answered: input tokens count cached ones too.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropic, openai } from "../../src/providers/index.js";
import { anthropicEvents as a, CHAT_DONE, chatChunk, RESPONSE_DEFAULTS, responses as r } from "../support/fake-streams.js";
import { collect, startFake, type Fake } from "../support/model-harness.js";

let fake: Fake;
beforeEach(async () => {
  fake = await startFake();
});
afterEach(() => fake.server.close());

describe("openai.chatModel", () => {
  it("asks for usage and reports it from the last chunk, after the finish chunk", async () => {
    const usageChunk = {
      id: "chatcmpl_fake_stream",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-fake",
      choices: [],
      usage: {
        prompt_tokens: 120,
        completion_tokens: 9,
        total_tokens: 129,
        prompt_tokens_details: { cached_tokens: 100 },
        completion_tokens_details: { reasoning_tokens: 4 },
      },
    };
    fake.server.queueStream("chat", { frames: [chatChunk({ content: "Hi." }), chatChunk({}, "stop"), { data: usageChunk }, CHAT_DONE] });

    const events = await collect(openai.chatModel({ client: fake.openai, model: "gpt-4.1" }));

    expect(fake.server.requests[0]?.body).toMatchObject({ stream_options: { include_usage: true } });
    expect(events).toEqual([
      { type: "text_delta", text: "Hi." },
      {
        type: "usage",
        usage: { inputTokens: 120, outputTokens: 9, cachedInputTokens: 100, reasoningTokens: 4 },
        responseId: "chatcmpl_fake_stream",
        responseModel: "gpt-fake",
      },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("sends your own stream_options as given", async () => {
    await collect(openai.chatModel({ client: fake.openai, model: "gpt-4.1", stream_options: { include_obfuscation: false } }));
    expect(fake.server.requests[0]?.body).toMatchObject({ stream_options: { include_obfuscation: false } });
  });
});

describe("openai.responsesModel", () => {
  it("reports the usage of the completed response, with its id and model", async () => {
    const completed = {
      event: "response.completed",
      data: {
        type: "response.completed",
        sequence_number: 9,
        response: {
          ...RESPONSE_DEFAULTS,
          id: "resp_9",
          status: "completed",
          model: "gpt-4.1-2025-04-14",
          output: [],
          tools: [],
          usage: {
            input_tokens: 50,
            output_tokens: 20,
            total_tokens: 70,
            input_tokens_details: { cached_tokens: 10 },
            output_tokens_details: { reasoning_tokens: 5 },
          },
        },
      },
    };
    fake.server.queueStream("responses", { frames: [r.created(), r.text("Hi."), completed] });

    expect(await collect(openai.responsesModel({ client: fake.openai, model: "gpt-4.1" }))).toEqual([
      { type: "text_delta", text: "Hi." },
      {
        type: "usage",
        usage: { inputTokens: 50, outputTokens: 20, cachedInputTokens: 10, reasoningTokens: 5 },
        responseId: "resp_9",
        responseModel: "gpt-4.1-2025-04-14",
      },
      { type: "finish", reason: "stop" },
    ]);
  });
});

describe("anthropic.messagesModel", () => {
  it("adds cache reads and writes to the input tokens, and takes the output tokens of the last message_delta", async () => {
    const start = {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: "msg_9",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-6",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 200, cache_creation_input_tokens: 30 },
        },
      },
    };
    fake.server.queueStream("anthropic", { frames: [start, a.textStart(0), a.text(0, "Hi."), a.stop(0), a.delta("end_turn"), a.messageStop()] });

    expect(await collect(anthropic.messagesModel({ client: fake.anthropic, model: "claude-sonnet-4-6" }))).toEqual([
      { type: "text_delta", text: "Hi." },
      { type: "usage", usage: { inputTokens: 240, outputTokens: 8, cachedInputTokens: 200 }, responseId: "msg_9", responseModel: "claude-sonnet-4-6" },
      { type: "finish", reason: "stop" },
    ]);
  });
});
