/**
 * The two-turn run the provider-state round-trip tests share: the model calls `weather`, gets
 * its answer, and answers; the test scripts both replies in the provider's wire format and
 * judges the second request, which carries the first turn back.
 */
import { expect } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, type Message, type Model } from "../../src/index.js";
import type { WireFrame, WireServer } from "./wire-server.js";

export const weather = defineTool({
  name: "weather",
  description: "weather in a city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

export const ASK: readonly Message[] = [{ role: "user", content: "Weather in Oslo and Lima?" }];

/** Runs the two turns (calls, then an answer) and gives the JSON body of the second request. */
export async function secondRequest(
  server: WireServer,
  model: Model,
  first: readonly WireFrame[] | string,
  second: readonly WireFrame[] | string,
): Promise<Record<string, unknown>> {
  const before = server.requests.length;
  server.reply(first, second);
  const result = await runAgent({ model, tools: [weather], messages: ASK });
  expect(result.haltedReason).toBe("completed");
  expect(server.requests.length - before).toBe(2);
  return server.requests[before + 1]?.body as Record<string, unknown>;
}

/** One Anthropic content block as the Messages API streams it: start, deltas, stop. */
export function anthropicBlock(index: number, content_block: unknown, deltas: readonly unknown[]): WireFrame[] {
  return [
    { event: "content_block_start", data: { type: "content_block_start", index, content_block } },
    ...deltas.map((delta) => ({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } })),
    { event: "content_block_stop", data: { type: "content_block_stop", index } },
  ];
}

/** An Anthropic message stream around its blocks. */
export function anthropicMessage(n: number, blocks: readonly WireFrame[], stop_reason: string): WireFrame[] {
  return [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: `msg_${n}`,
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      },
    },
    ...blocks,
    { event: "message_delta", data: { type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 9 } } },
    { event: "message_stop", data: { type: "message_stop" } },
  ];
}

/** Claude's first turn: signed thinking, a redacted thinking block, text and a call. */
export const ANTHROPIC_FIRST = anthropicMessage(
  1,
  [
    ...anthropicBlock(0, { type: "thinking", thinking: "", signature: "" }, [
      { type: "thinking_delta", thinking: "Two cities." },
      { type: "signature_delta", signature: "sig-thinking" },
    ]),
    ...anthropicBlock(1, { type: "redacted_thinking", data: "redacted-data" }, []),
    ...anthropicBlock(2, { type: "text", text: "" }, [{ type: "text_delta", text: "Checking." }]),
    ...anthropicBlock(3, { type: "tool_use", id: "toolu_oslo", name: "weather", input: {} }, [{ type: "input_json_delta", partial_json: '{"city":"Oslo"}' }]),
  ],
  "tool_use",
);

/** Claude's second turn: its answer. */
export const ANTHROPIC_SECOND = anthropicMessage(2, anthropicBlock(0, { type: "text", text: "" }, [{ type: "text_delta", text: "Cold in Oslo." }]), "end_turn");

/** The assistant message the first turn must come back as, in the Messages API's words. */
export const ANTHROPIC_REPLAYED = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: "Two cities.", signature: "sig-thinking" },
    { type: "redacted_thinking", data: "redacted-data" },
    { type: "text", text: "Checking." },
    { type: "tool_use", id: "toolu_oslo", name: "weather", input: { city: "Oslo" } },
  ],
};

/** A Chat Completions chunk, as OpenAI-style APIs stream them. */
export function chatChunk(delta: Record<string, unknown>, finish_reason: string | null = null, usage?: unknown): WireFrame {
  return {
    data: {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "test",
      choices: [{ index: 0, delta, finish_reason, logprobs: null }],
      ...(usage === undefined ? {} : { usage }),
    },
  };
}

export const CHAT_USAGE = { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 };

/** A Chat Completions answer: "Cold in Oslo." */
export const CHAT_SECOND: readonly WireFrame[] = [
  chatChunk({ role: "assistant", content: "Cold in Oslo." }),
  chatChunk({}, "stop", CHAT_USAGE),
  { data: "[DONE]" },
];
