/**
 * Server-Sent Event streams as the OpenAI and Anthropic APIs send them, built from events typed
 * against the official SDKs (so a frame the SDKs would not parse fails `tsc`). Each builder
 * returns the frames of one streamed turn; fake-providers.ts writes them to the wire.
 *
 * Wire formats: Chat Completions sends `data: <chunk>` frames ending with `data: [DONE]`; the
 * Responses API and Anthropic name each frame's event (`event: <type>`), and Anthropic's SDK
 * skips frames without one.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";

/** One SSE frame: an optional event name and its data (JSON-encoded unless already a string). */
export interface SseFrame {
  readonly event?: string;
  readonly data: unknown;
}

/** What the fake answers one streaming request with. */
export type StreamScript =
  /** The frames, then the end of the response, or with `hang` the connection left open. */
  | { readonly frames: readonly SseFrame[]; readonly hang?: boolean }
  /** An error status with the provider's error body, before any stream. */
  | { readonly status: number; readonly error: { readonly type: string; readonly message: string } };

export function sseText(frames: readonly SseFrame[]): string {
  return frames
    .map((f) => `${f.event === undefined ? "" : `event: ${f.event}\n`}data: ${typeof f.data === "string" ? f.data : JSON.stringify(f.data)}\n\n`)
    .join("");
}

// --- OpenAI Chat Completions -------------------------------------------------------------

type ChatDelta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta;
type ChatFinish = OpenAI.Chat.Completions.ChatCompletionChunk.Choice["finish_reason"];

export function chatChunk(delta: ChatDelta, finish_reason: ChatFinish = null): SseFrame {
  const chunk: OpenAI.Chat.Completions.ChatCompletionChunk = {
    id: "chatcmpl_fake_stream",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "gpt-fake",
    choices: [{ index: 0, delta, finish_reason, logprobs: null }],
  };
  return { data: chunk };
}

/** A tool-call argument delta for the call at `index` (the first delta of a call carries its id and name). */
export function chatToolDelta(index: number, args: string, start?: { id: string; name: string }): SseFrame {
  const call: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall = start
    ? { index, id: start.id, type: "function", function: { name: start.name, arguments: args } }
    : { index, function: { arguments: args } };
  return chatChunk({ tool_calls: [call] });
}

export const CHAT_DONE: SseFrame = { data: "[DONE]" };

/** A whole Chat Completions turn: text deltas, then `finish_reason`, then `[DONE]`. */
export function chatTextTurn(texts: readonly string[], finish: ChatFinish = "stop"): SseFrame[] {
  return [chatChunk({ role: "assistant", content: "" }), ...texts.map((content) => chatChunk({ content })), chatChunk({}, finish), CHAT_DONE];
}

// --- OpenAI Responses ----------------------------------------------------------------------

type ResponseEvent = OpenAI.Responses.ResponseStreamEvent;

function responseEvent(event: ResponseEvent): SseFrame {
  return { event: event.type, data: event };
}

/** The fields of a Responses API response that every fake response, streamed or whole, gives alike. */
export const RESPONSE_DEFAULTS = {
  object: "response",
  created_at: 1_700_000_000,
  error: null,
  incomplete_details: null,
  instructions: null,
  metadata: {},
  parallel_tool_calls: true,
  temperature: 1,
  top_p: 1,
  tool_choice: "auto",
} as const satisfies Partial<OpenAI.Responses.Response>;

function responseObject(status: OpenAI.Responses.ResponseStatus, extra: Partial<OpenAI.Responses.Response> = {}): OpenAI.Responses.Response {
  return { ...RESPONSE_DEFAULTS, id: "resp_fake_stream", status, model: "gpt-fake", output: [], output_text: "", tools: [], ...extra };
}

let sequence = 0;

export const responses = {
  created: (): SseFrame => responseEvent({ type: "response.created", sequence_number: sequence++, response: responseObject("in_progress") }),
  text: (delta: string, output_index = 0): SseFrame =>
    responseEvent({
      type: "response.output_text.delta",
      sequence_number: sequence++,
      item_id: `msg_${output_index}`,
      output_index,
      content_index: 0,
      delta,
      logprobs: [],
    }),
  callAdded: (output_index: number, call_id: string, name: string): SseFrame =>
    responseEvent({
      type: "response.output_item.added",
      sequence_number: sequence++,
      output_index,
      item: { type: "function_call", id: `fc_${output_index}`, call_id, name, arguments: "", status: "in_progress" },
    }),
  argsDelta: (output_index: number, delta: string): SseFrame =>
    responseEvent({ type: "response.function_call_arguments.delta", sequence_number: sequence++, item_id: `fc_${output_index}`, output_index, delta }),
  callDone: (output_index: number, call_id: string, name: string, args: string): SseFrame =>
    responseEvent({
      type: "response.output_item.done",
      sequence_number: sequence++,
      output_index,
      item: { type: "function_call", id: `fc_${output_index}`, call_id, name, arguments: args, status: "completed" },
    }),
  completed: (): SseFrame => responseEvent({ type: "response.completed", sequence_number: sequence++, response: responseObject("completed") }),
  incomplete: (reason: "max_output_tokens" | "content_filter"): SseFrame =>
    responseEvent({ type: "response.incomplete", sequence_number: sequence++, response: responseObject("incomplete", { incomplete_details: { reason } }) }),
  failed: (code: OpenAI.Responses.ResponseError["code"], message: string): SseFrame =>
    responseEvent({ type: "response.failed", sequence_number: sequence++, response: responseObject("failed", { error: { code, message } }) }),
  error: (code: string, message: string): SseFrame => responseEvent({ type: "error", sequence_number: sequence++, code, message, param: null }),
};

/** A whole Responses turn of text. */
export function responsesTextTurn(texts: readonly string[]): SseFrame[] {
  return [responses.created(), ...texts.map((t) => responses.text(t)), responses.completed()];
}

// --- Anthropic Messages --------------------------------------------------------------------

type AnthropicEvent = Anthropic.Messages.RawMessageStreamEvent;

/** A Messages API message's `usage`, as every fake message gives it: 12 tokens in, `output_tokens` out. */
export function anthropicUsage(output_tokens: number): Anthropic.Messages.Usage {
  return {
    input_tokens: 12,
    output_tokens,
    cache_creation: null,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: "standard",
    speed: null,
  };
}

function anthropicEvent(event: AnthropicEvent): SseFrame {
  return { event: event.type, data: event };
}

export const anthropicEvents = {
  start: (): SseFrame =>
    anthropicEvent({
      type: "message_start",
      message: {
        id: "msg_fake_stream",
        type: "message",
        role: "assistant",
        model: "claude-fake",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        container: null,
        diagnostics: null,
        usage: anthropicUsage(1),
      },
    }),
  textStart: (index: number): SseFrame => anthropicEvent({ type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } }),
  text: (index: number, text: string): SseFrame => anthropicEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text } }),
  toolStart: (index: number, id: string, name: string): SseFrame =>
    anthropicEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {}, caller: { type: "direct" } } }),
  json: (index: number, partial_json: string): SseFrame =>
    anthropicEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }),
  stop: (index: number): SseFrame => anthropicEvent({ type: "content_block_stop", index }),
  delta: (stop_reason: Anthropic.Messages.StopReason): SseFrame =>
    anthropicEvent({
      type: "message_delta",
      delta: { stop_reason, stop_sequence: null, stop_details: null, container: null },
      usage: {
        input_tokens: null,
        output_tokens: 8,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        output_tokens_details: null,
        server_tool_use: null,
      },
    }),
  messageStop: (): SseFrame => anthropicEvent({ type: "message_stop" }),
  ping: (): SseFrame => ({ event: "ping", data: { type: "ping" } }),
  /** An error in the stream, as the API sends `overloaded_error` after a 200. */
  error: (type: string, message: string): SseFrame => ({ event: "error", data: { type: "error", error: { type, message } } }),
};

/** A whole Anthropic turn of text. */
export function anthropicTextTurn(texts: readonly string[], stop: Anthropic.Messages.StopReason = "end_turn"): SseFrame[] {
  const e = anthropicEvents;
  return [e.start(), e.textStart(0), ...texts.map((t) => e.text(0, t)), e.stop(0), e.delta(stop), e.messageStop()];
}
