import { assertClient } from "../model-options.js";
import { streamModel, type StreamReader } from "../model-stream.js";
import { parseArgumentsText } from "../parse-arguments.js";
import { toMessages, type MessageParam } from "./messages.js";
import { ANTHROPIC } from "./thinking.js";
import { TruncatedStreamError } from "../truncated-stream-error.js";
import { AnthropicUsage } from "./anthropic-usage.js";
import { toolUseCall } from "./parse-tool-calls.js";
import { isHostedBlock } from "./hosted-blocks.js";
import { anthropicSearchTool, toTools, type AnthropicTool, type AnthropicToolSearchTool } from "./tools.js";
import { alwaysLoadedOf, type NativeToolSearch } from "../native-tool-search.js";
import type { FinishReason, Model, ModelEvent } from "../../index.js";

/** One Messages API stream event, the fields the model reads. */
export type MessageStreamEventLike =
  | { type: "content_block_start"; index: number; content_block: { type: string } }
  | { type: "content_block_delta"; index: number; delta: { type: string } }
  | { type: "content_block_stop"; index: number }
  | { type: "message_delta"; delta: { stop_reason: string | null } }
  | { type: string };

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

/** Anthropic stop reasons in §9's words. */
const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content_filter",
};

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

interface PartialToolUse {
  id: string;
  name: string;
  input: unknown;
  json: string;
}

/** A block the provider runs itself, as it started, with the input JSON streamed into it so far. */
interface PartialHosted {
  block: Record<string, unknown>;
  json: string;
}

class MessageEventReader implements StreamReader<MessageStreamEventLike> {
  private readonly toolUses = new Map<number, PartialToolUse>();
  /** Thinking blocks open, by index: their text and signature so far. */
  private readonly thinking = new Map<number, { text: string; signature: string }>();
  private readonly hosted = new Map<number, PartialHosted>();
  private stopReason: string | null = null;
  private called = false;
  private stopped = false;
  private readonly usage = new AnthropicUsage();

  read(event: MessageStreamEventLike): ModelEvent[] {
    switch (event.type) {
      case "content_block_start": {
        const { index, content_block: block } = event as { index: number; content_block: { type: string; text?: string } };
        if (block.type === "tool_use") {
          const { id, name, input } = block as { type: "tool_use"; id: string; name: string; input: unknown };
          this.toolUses.set(index, { id, name, input, json: "" });
          return [{ type: "tool_input_started", id, name }];
        } else if (block.type === "text") {
          return block.text ? [{ type: "text_delta", text: block.text }] : [];
        } else if (block.type === "thinking") {
          const { thinking = "", signature = "" } = block as { thinking?: string; signature?: string };
          this.thinking.set(index, { text: thinking, signature });
          return thinking === "" ? [] : [{ type: "reasoning_delta", text: thinking }];
        } else if (block.type === "redacted_thinking") {
          const { data } = block as { data?: unknown };
          return [{ type: "reasoning", part: { text: "", provider: ANTHROPIC, data: { type: "redacted_thinking", data } } }];
        } else if (isHostedBlock(block.type)) {
          this.hosted.set(index, { block: { ...block }, json: "" });
          return [];
        }
        // A block toolrx cannot keep may be one the model waits on: fail rather than drop it.
        throw new TypeError(`Anthropic sent a ${JSON.stringify(block.type)} content block, which toolrx has no place for`);
      }
      case "content_block_delta": {
        const { index, delta } = event as {
          index: number;
          delta: { type: string; text?: string; partial_json?: string; thinking?: string; signature?: string };
        };
        if (delta.type === "text_delta" && delta.text) return [{ type: "text_delta", text: delta.text }];
        const thinking = this.thinking.get(index);
        if (thinking !== undefined) {
          if (delta.type === "signature_delta") thinking.signature += delta.signature ?? "";
          if (delta.type !== "thinking_delta" || !delta.thinking) return [];
          thinking.text += delta.thinking;
          return [{ type: "reasoning_delta", text: delta.thinking }];
        }
        const hosted = this.hosted.get(index);
        if (delta.type === "input_json_delta" && hosted !== undefined) hosted.json += delta.partial_json ?? "";
        const toolUse = this.toolUses.get(index);
        if (delta.type === "input_json_delta" && toolUse !== undefined && delta.partial_json) {
          toolUse.json += delta.partial_json;
          return [{ type: "tool_input_delta", id: toolUse.id, delta: delta.partial_json }];
        }
        return [];
      }
      case "content_block_stop": {
        const { index } = event as { index: number };
        const thinking = this.thinking.get(index);
        if (thinking !== undefined) {
          this.thinking.delete(index);
          return [{ type: "reasoning", part: { text: thinking.text, provider: ANTHROPIC, data: { type: "thinking", signature: thinking.signature } } }];
        }
        const hosted = this.hosted.get(index);
        if (hosted !== undefined) {
          this.hosted.delete(index);
          return [{ type: "provider_item", provider: "anthropic", item: hostedBlock(hosted) }];
        }
        const toolUse = this.toolUses.get(index);
        if (toolUse === undefined) return [];
        this.toolUses.delete(index);
        this.called = true;
        const { id, name, input, json } = toolUse;
        // No deltas: the input is the one the block started with (`{}` for a tool without parameters).
        const call = json.trim() === "" ? toolUseCall({ id, name, input }) : { id, name, ...parseArgumentsText(json) };
        return [{ type: "tool_call", call }];
      }
      case "message_start":
        this.usage.start((event as { message?: unknown }).message);
        return [];
      case "message_delta":
        this.stopReason = (event as { delta: { stop_reason: string | null } }).delta.stop_reason ?? this.stopReason;
        this.usage.delta((event as { usage?: unknown }).usage);
        return [];
      case "message_stop":
        this.stopped = true;
        return [...this.usage.events(), { type: "finish", reason: this.finishReason() }];
      default:
        return [];
    }
  }

  end(): ModelEvent[] {
    // Without `message_stop` the message was cut off; a tool_use block still open is dropped.
    return this.stopped ? [] : [{ type: "finish", reason: "error", error: new TruncatedStreamError("Anthropic Messages", "message_stop") }];
  }

  private finishReason(): FinishReason {
    const mapped = this.stopReason === null ? undefined : FINISH[this.stopReason];
    return mapped ?? (this.called ? "tool_calls" : "stop");
  }
}

/** The block as the provider will take it back: with its streamed input, when it streamed one. */
function hostedBlock({ block, json }: PartialHosted): Record<string, unknown> {
  if (json.trim() === "") return block;
  try {
    return { ...block, input: JSON.parse(json) as unknown };
  } catch {
    // The provider's own JSON, cut or malformed: it judges it when it gets it back.
    return { ...block, input: json };
  }
}
