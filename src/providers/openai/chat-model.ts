import { assertClient } from "../model-options.js";
import { streamModel } from "../model-stream.js";
import type { TruncatedStreamError } from "../truncated-stream-error.js";
import { ChatChunkReader, type ChatCompletionChunkLike } from "./chat-chunk-reader.js";
import { toChatMessages, type ChatMessageParam } from "./chat-messages.js";
import { toTools, type ChatFunctionTool } from "./tools.js";
import type { Model } from "../../index.js";

/** The request {@link chatModel} sends: your parameters, plus the conversation, tools and `stream: true`. */
export interface ChatStreamRequest {
  model: string;
  messages: ChatMessageParam[];
  tools?: ChatFunctionTool[];
  stream: true;
  [param: string]: unknown;
}

/** An OpenAI client, or anything with its `chat.completions.create` streaming call. */
export interface ChatCompletionsClient {
  chat: {
    completions: {
      create(body: ChatStreamRequest, options: { signal: AbortSignal }): PromiseLike<AsyncIterable<ChatCompletionChunkLike>>;
    };
  };
}

/** Options of {@link chatModel}: the client, the model, and any other request parameter, sent as given. */
export interface ChatModelOptions {
  client: ChatCompletionsClient;
  model: string;
  /** `temperature`, `tool_choice`, `parallel_tool_calls`…: sent with every request. */
  [param: string]: unknown;
}

/**
 * An OpenAI Chat Completions model for the agent loop: streams the conversation's next turn,
 * text as it comes, each tool call as soon as it is complete, so its tool starts while the
 * model still streams: when its arguments parse as a whole JSON object, when the call at the
 * next index begins, or when its index brings a new id (OpenAI-compatible servers that send
 * every call at index 0), at the latest when the choice finishes. Arguments that are not valid
 * JSON keep the call, with the text as `rawArguments`, so the model is told and can retry.
 * Then `usage` (tokens, response id, model) and `finish`.
 *
 * Usage is asked for with `stream_options: { include_usage: true }` unless you pass
 * `stream_options` yourself. A stream that ends without a `finish_reason` was cut off: the turn
 * finishes with `error` (a {@link TruncatedStreamError}), and a call still streaming never runs.
 *
 * Unsubscribing, or aborting the request's `signal`, aborts the HTTP stream. A provider error
 * (an error status, an error in the stream) errors the Observable with the SDK's error, so
 * `retry` and `catchError` work on it; the loop ends with `error`.
 *
 * @example
 * import OpenAI from "openai";
 * const model = openai.chatModel({ client: new OpenAI(), model: "gpt-4.1", temperature: 0 });
 * await runAgent({ model, tools: [weather], messages: [{ role: "user", content: "Weather in Paris?" }] });
 */
export function chatModel(options: ChatModelOptions): Model {
  assertClient(options, "openai.chatModel", "an OpenAI client", ["chat", "completions", "create"]);
  const { client, model, ...params } = options;
  return (request) =>
    streamModel(
      request,
      (signal) => {
        // Usage comes only when asked for; a `stream_options` of your own is sent as given.
        const usage = "stream_options" in params ? {} : { stream_options: { include_usage: true } };
        const body: ChatStreamRequest = { ...usage, ...params, ...request.options, model, messages: toChatMessages(request.messages), stream: true };
        if (request.tools.length > 0) body.tools = toTools(request.tools);
        return client.chat.completions.create(body, { signal });
      },
      () => new ChatChunkReader(),
    );
}
