/**
 * The model the fake providers play: it always wants the weather in Paris. Its answers are
 * typed against the official SDKs, so a shape the SDKs would not parse fails `tsc`: whole JSON
 * responses for plain requests, and for streaming ones the same turn as Server-Sent Event
 * frames (a tool call, or once the conversation ends with the tool's answer, the text).
 */
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import {
  anthropicEvents,
  anthropicTextTurn,
  anthropicUsage,
  CHAT_DONE,
  chatChunk,
  chatTextTurn,
  chatToolDelta,
  RESPONSE_DEFAULTS,
  responses,
  responsesTextTurn,
  type SseFrame,
} from "./fake-streams.js";

/** The ids the fake model gives its calls and responses, for the tests to look for. */
export const FAKE_IDS = {
  chatCompletion: "chatcmpl_fake_1",
  chatToolCall: "call_fake_chat_weather",
  response: "resp_fake_1",
  followUpResponse: "resp_fake_2",
  responsesToolCall: "call_fake_responses_weather",
  anthropicMessage: "msg_fake_1",
  anthropicToolUse: "toolu_fake_weather",
} as const;

/** The fields of a request body the fake reads. */
export interface RequestBody {
  model?: string;
  tools?: unknown[];
  previous_response_id?: string;
  stream?: boolean;
  /** Chat Completions and Anthropic. */
  messages?: { role?: string; content?: unknown }[];
  /** Responses. */
  input?: { type?: string; role?: string }[] | string;
}

const WEATHER_ARGUMENTS = { city: "Paris" };

/** The fake model's answer once it has the weather, streamed in these two deltas. */
export const WEATHER_ANSWER_DELTAS = ["It is 21°C ", "in Paris."] as const;

/** Whether the conversation ends with the answer to a tool call, in any of the three formats. */
function answered(body: RequestBody): boolean {
  const last = Array.isArray(body.input) ? body.input.at(-1) : body.messages?.at(-1);
  if (last === undefined) return false;
  if ("type" in last && last.type === "function_call_output") return true;
  if ("role" in last && last.role === "tool") return true;
  const content = (last as { content?: unknown }).content;
  return Array.isArray(content) && content.some((block: { type?: string }) => block.type === "tool_result");
}

/** Streamed Chat Completions weather turn: the call (its arguments in two deltas), or the answer. */
export function chatWeatherTurn(body: RequestBody): SseFrame[] {
  if (answered(body)) return chatTextTurn(WEATHER_ANSWER_DELTAS);
  const args = JSON.stringify(WEATHER_ARGUMENTS);
  return [
    chatChunk({ role: "assistant", content: null }),
    chatToolDelta(0, args.slice(0, 5), { id: FAKE_IDS.chatToolCall, name: "weather" }),
    chatToolDelta(0, args.slice(5)),
    chatChunk({}, "tool_calls"),
    CHAT_DONE,
  ];
}

export function responsesWeatherTurn(body: RequestBody): SseFrame[] {
  if (answered(body)) return responsesTextTurn(WEATHER_ANSWER_DELTAS);
  const args = JSON.stringify(WEATHER_ARGUMENTS);
  const [id, name] = [FAKE_IDS.responsesToolCall, "weather"];
  return [responses.created(), responses.callAdded(0, id, name), responses.argsDelta(0, args), responses.callDone(0, id, name, args), responses.completed()];
}

export function anthropicWeatherTurn(body: RequestBody): SseFrame[] {
  if (answered(body)) return anthropicTextTurn(WEATHER_ANSWER_DELTAS);
  const e = anthropicEvents;
  const args = JSON.stringify(WEATHER_ARGUMENTS);
  return [
    e.start(),
    e.textStart(0),
    e.text(0, "Let me check the weather."),
    e.stop(0),
    e.toolStart(1, FAKE_IDS.anthropicToolUse, "weather"),
    e.json(1, args.slice(0, 5)),
    e.json(1, args.slice(5)),
    e.stop(1),
    e.delta("tool_use"),
    e.messageStop(),
  ];
}

/** Chat Completions: the assistant calls `weather` for Paris. */
export function chatCompletion(body: RequestBody): OpenAI.Chat.Completions.ChatCompletion {
  return {
    id: FAKE_IDS.chatCompletion,
    object: "chat.completion",
    created: 1_700_000_000,
    model: String(body.model),
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [{ id: FAKE_IDS.chatToolCall, type: "function", function: { name: "weather", arguments: JSON.stringify(WEATHER_ARGUMENTS) } }],
        },
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
  };
}

/** Responses API, first turn: one `function_call` item calling `weather` for Paris. */
export function functionCallResponse(body: RequestBody): WireResponse {
  return response(FAKE_IDS.response, body, [
    {
      type: "function_call",
      id: "fc_fake_1",
      call_id: FAKE_IDS.responsesToolCall,
      name: "weather",
      arguments: JSON.stringify(WEATHER_ARGUMENTS),
      status: "completed",
    },
  ]);
}

/** Responses API, after the tool output: a plain assistant message. */
export function messageResponse(body: RequestBody): WireResponse {
  return response(FAKE_IDS.followUpResponse, body, [
    {
      type: "message",
      id: "msg_fake_2",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "It is 21°C in Paris.", annotations: [] }],
    },
  ]);
}

/** `output_text` is not on the wire: the SDK adds it. */
type WireResponse = Omit<OpenAI.Responses.Response, "output_text">;

function response(id: string, body: RequestBody, output: OpenAI.Responses.ResponseOutputItem[]): WireResponse {
  return {
    ...RESPONSE_DEFAULTS,
    id,
    status: "completed",
    model: String(body.model),
    output,
    tools: (body.tools ?? []) as OpenAI.Responses.Tool[],
    previous_response_id: body.previous_response_id ?? null,
    usage: {
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 20,
    },
  };
}

/** Messages API: the assistant answers with one `tool_use` block calling `weather` for Paris. */
export function toolUseMessage(body: RequestBody): Anthropic.Messages.Message {
  return {
    id: FAKE_IDS.anthropicMessage,
    type: "message",
    role: "assistant",
    model: String(body.model),
    content: [
      { type: "text", text: "Let me check the weather.", citations: null },
      { type: "tool_use", id: FAKE_IDS.anthropicToolUse, name: "weather", input: WEATHER_ARGUMENTS, caller: { type: "direct" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: anthropicUsage(8),
  };
}
