import { assertClient } from "../model-options.js";
import { streamModel } from "../model-stream.js";
import { toMessages, type MessageParam } from "./messages.js";
import { MessageEventReader, type MessageStreamEventLike } from "./message-event-reader.js";
import { anthropicSearchTool, toTools, type AnthropicTool, type AnthropicToolSearchTool } from "./tools.js";
import { alwaysLoadedOf, type NativeToolSearch } from "../native-tool-search.js";
import type { Model } from "../../index.js";
import type { TruncatedStreamError } from "../truncated-stream-error.js";

/** The request {@link messagesModel} sends: your parameters, plus the conversation, tools and `stream: true`. */
export interface MessagesStreamRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string;
  tools?: (AnthropicTool | AnthropicToolSearchTool)[];
  stream: true;
  [param: string]: unknown;
}

/** An Anthropic client, or anything with its `messages.create` streaming call. */
export interface MessagesClient {
  messages: {
    create(body: MessagesStreamRequest, options: { signal: AbortSignal }): PromiseLike<AsyncIterable<MessageStreamEventLike>>;
  };
}

/** Options of {@link messagesModel}: the client, the model, `max_tokens`, and any other request parameter, sent as given. */
export interface MessagesModelOptions {
  client: MessagesClient;
  model: string;
  /** Required by the API. Default 4096. */
  max_tokens?: number;
  /** A system prompt before the conversation's own system messages. */
  system?: string;
  /**
   * Anthropic's own tool search: every tool but `alwaysLoaded` goes with `defer_loading: true`,
   * next to the `tool_search_tool_bm25` tool (or `_regex`, with `variant: "regex"`); the model
   * searches, Anthropic loads what it finds, and its `server_tool_use` and
   * `tool_search_tool_result` blocks stay in the conversation as `providerItems`. Default off.
   */
  toolSearch?: NativeToolSearch & { readonly variant?: "bm25" | "regex" };
  /** `temperature`, `tool_choice`, `thinking`…: sent with every request. */
  [param: string]: unknown;
}

/**
 * An Anthropic Messages model for the agent loop: streams text as it comes and each `tool_use`
 * block as soon as it closes (its `input_json_delta`s put together; text that is not a JSON
 * object keeps the call, as `rawArguments`), then `usage` (tokens, message id, model) and
 * `finish` from `stop_reason` (`end_turn` and `stop_sequence`: `stop`; `tool_use`:
 * `tool_calls`; `max_tokens`: `length`; `refusal`: `content_filter`). System messages go to
 * `system`. A stream that ends without `message_stop` was cut off: the turn finishes with
 * `error` (a {@link TruncatedStreamError}), and a `tool_use` block still open never runs.
 *
 * Unsubscribing, or aborting the request's `signal`, aborts the HTTP stream. A provider error
 * (an error status, an `error` event such as `overloaded_error`) errors the Observable with the
 * SDK's `APIError`; the loop ends with `error`.
 *
 * With extended `thinking` on, each `thinking` block streams as `reasoning_delta`s and closes as
 * a `reasoning` piece of provider `"anthropic"` (its `signature` in `data`); a
 * `redacted_thinking` block is a piece with no text and its `data`. The assistant message keeps
 * them, and the next request sends them back first in the turn, as the API requires on a turn
 * that used tools.
 *
 * @example
 * import Anthropic from "@anthropic-ai/sdk";
 * const model = anthropic.messagesModel({ client: new Anthropic(), model: "claude-sonnet-4-6", max_tokens: 1024 });
 */
export function messagesModel(options: MessagesModelOptions): Model {
  assertClient(options, "anthropic.messagesModel", "an Anthropic client", ["messages", "create"]);
  const { client, model, max_tokens = 4096, system: prompt, toolSearch, ...params } = options;
  const alwaysLoaded = alwaysLoadedOf(toolSearch, "anthropic.messagesModel", ["alwaysLoaded", "variant"]);
  const variant = toolSearch?.variant ?? "bm25";
  if (variant !== "bm25" && variant !== "regex")
    throw new TypeError(`Expected \`toolSearch.variant\` of \`anthropic.messagesModel\` to be "bm25" or "regex", got ${JSON.stringify(variant)}`);
  if (typeof max_tokens !== "number" || !Number.isInteger(max_tokens) || max_tokens < 1) {
    throw new TypeError(`Expected \`max_tokens\` of \`anthropic.messagesModel\` to be a positive integer, got ${String(max_tokens)}`);
  }
  if (prompt !== undefined && typeof prompt !== "string") {
    throw new TypeError(`Expected \`system\` of \`anthropic.messagesModel\` to be a string, got ${typeof prompt}`);
  }
  return (request) =>
    streamModel(
      request,
      (signal) => {
        const { system, messages } = toMessages(request.messages);
        const body: MessagesStreamRequest = { ...params, max_tokens, ...request.options, model, messages, stream: true };
        const joined = [prompt, system].filter((s) => s !== undefined && s !== "").join("\n\n");
        if (joined !== "") body.system = joined;
        if (request.tools.length > 0) {
          const tools = toTools(request.tools);
          body.tools =
            alwaysLoaded === undefined
              ? tools
              : [anthropicSearchTool(variant), ...tools.map((tool) => (alwaysLoaded.has(tool.name) ? tool : { ...tool, defer_loading: true }))];
        }
        return client.messages.create(body, { signal });
      },
      () => new MessageEventReader(),
    );
}
