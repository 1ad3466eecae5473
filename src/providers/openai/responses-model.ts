import { assertClient } from "../model-options.js";
import { streamModel, type StreamReader } from "../model-stream.js";
import { isRecord } from "../shape.js";
import { OPENAI_RESPONSES, reasoningOfItem, SUMMARY_BREAK } from "./reasoning-items.js";
import { TruncatedStreamError } from "../truncated-stream-error.js";
import { count, tokenUsage, usageEvent } from "../usage-event.js";
import { functionCall } from "./responses-output.js";
import { isHostedItem } from "./hosted-items.js";
import { toResponsesInput, type ResponsesInputItem } from "./responses-input.js";
import { toResponsesTools, type ResponsesFunctionTool, type ResponsesToolSearchTool } from "./tools.js";
import { alwaysLoadedOf, type NativeToolSearch } from "../native-tool-search.js";
import type { Model, ModelEvent } from "../../index.js";

/** One Responses API stream event, the fields the model reads. */
export type ResponseStreamEventLike =
  | { type: "response.output_text.delta" | "response.refusal.delta"; delta: string }
  | { type: "response.output_item.added" | "response.output_item.done"; output_index: number; item: { type: string } }
  | { type: "response.function_call_arguments.delta"; output_index: number; delta: string }
  | { type: "response.completed" | "response.incomplete" | "response.failed"; response: ResponseStatusLike }
  | { type: "error"; code: string | null; message: string }
  | { type: string };

interface ResponseStatusLike {
  id?: string;
  model?: string;
  incomplete_details?: { reason?: string } | null;
  error?: { code: string; message: string } | null;
  usage?: {
    input_tokens: number;
    output_tokens: number;
    input_tokens_details?: { cached_tokens?: number } | null;
    output_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
}

type FunctionCallItem = { type: "function_call"; call_id: string; name: string; arguments: string; id?: string };

/** The request {@link responsesModel} sends: your parameters, plus the conversation as `input`, tools and `stream: true`. */
export interface ResponsesStreamRequest {
  model: string;
  input: ResponsesInputItem[];
  tools?: (ResponsesFunctionTool | ResponsesToolSearchTool)[];
  stream: true;
  [param: string]: unknown;
}

/** An OpenAI client, or anything with its `responses.create` streaming call. */
export interface ResponsesClient {
  responses: {
    create(body: ResponsesStreamRequest, options: { signal: AbortSignal }): PromiseLike<AsyncIterable<ResponseStreamEventLike>>;
  };
}

/** Options of {@link responsesModel}: the client, the model, and any other request parameter, sent as given. */
export interface ResponsesModelOptions {
  client: ResponsesClient;
  model: string;
  /**
   * OpenAI's own tool search: every tool but `alwaysLoaded` goes with `defer_loading: true`, next
   * to a `tool_search` tool run on OpenAI's side; its `tool_search_call` and `tool_search_output`
   * items stay in the conversation as `providerItems`. Default off.
   */
  toolSearch?: NativeToolSearch;
  /** `instructions`, `temperature`, `reasoning`…: sent with every request. */
  [param: string]: unknown;
}

/**
 * An OpenAI Responses API model for the agent loop, stateless: each turn sends the whole
 * conversation as `input` (no `previous_response_id`). Streams text as it comes and each
 * function call as soon as its item is done, then `usage` (tokens, response id, model) and
 * `finish`: `completed` is `tool_calls` when the turn called tools, else `stop`; `incomplete` is
 * `length` (`max_output_tokens`) or `content_filter`. A stream that ends without either was cut
 * off: the turn finishes with `error` (a {@link TruncatedStreamError}), and a call whose item was
 * not done never runs.
 *
 * Unsubscribing, or aborting the request's `signal`, aborts the HTTP stream. A provider error
 * (an error status, an `error` event, a `failed` response) errors the Observable (the SDK's
 * error, or an `Error` with the response's `code` and `message`); the loop ends with `error`.
 * A `reasoning` item streams its summary as `reasoning_delta`s (summaries apart by a blank
 * line) and ends as a `reasoning` piece of provider `"openai-responses"` holding the whole item:
 * the next request sends it back unchanged, before the turn's text and calls. Each message and
 * function call item's `id` is kept too (the message's in `textState`, the call's in its
 * `providerState`) and goes back with it. To keep a
 * reasoning model's state across stateless turns, ask for it: `include:
 * ["reasoning.encrypted_content"]` and `store: false`.
 *
 * @example
 * const model = openai.responsesModel({ client: new OpenAI(), model: "gpt-4.1", instructions: "Be brief." });
 */
export function responsesModel(options: ResponsesModelOptions): Model {
  assertClient(options, "openai.responsesModel", "an OpenAI client", ["responses", "create"]);
  const { client, model, toolSearch, ...params } = options;
  const alwaysLoaded = alwaysLoadedOf(toolSearch, "openai.responsesModel");
  return (request) =>
    streamModel(
      request,
      (signal) => {
        const body: ResponsesStreamRequest = { ...params, ...request.options, model, input: toResponsesInput(request.messages), stream: true };
        if (request.tools.length > 0) {
          const tools = toResponsesTools(request.tools);
          body.tools =
            alwaysLoaded === undefined
              ? tools
              : [{ type: "tool_search" }, ...tools.map((tool) => (alwaysLoaded.has(tool.name) ? tool : { ...tool, defer_loading: true }))];
        }
        return client.responses.create(body, { signal });
      },
      () => new ResponseEventReader(),
    );
}

class ResponseEventReader implements StreamReader<ResponseStreamEventLike> {
  /** Argument text streamed so far, by output index, for an item that ends without its own. */
  private readonly pending = new Map<number, string>();
  /** The call id of each function call item being streamed, by output index. */
  private readonly ids = new Map<number, string>();
  private called = false;
  private ended = false;

  read(event: ResponseStreamEventLike): ModelEvent[] {
    switch (event.type) {
      case "response.output_text.delta":
      case "response.refusal.delta": {
        // A refusal is what the user is told instead of an answer: it is the turn's text.
        const { delta } = event as { delta: string };
        return delta === "" ? [] : [{ type: "text_delta", text: delta }];
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const { delta } = event as unknown as { delta: string };
        return delta === "" ? [] : [{ type: "reasoning_delta", text: delta }];
      }
      case "response.reasoning_summary_part.added": {
        const { summary_index } = event as unknown as { summary_index?: number };
        return typeof summary_index === "number" && summary_index > 0 ? [{ type: "reasoning_delta", text: SUMMARY_BREAK }] : [];
      }
      case "response.output_item.added": {
        const { output_index, item } = event as { output_index: number; item: { type: string; arguments?: string; call_id?: string; name?: string } };
        if (item.type !== "function_call") return [];
        this.pending.set(output_index, item.arguments ?? "");
        if (typeof item.call_id !== "string" || typeof item.name !== "string") return [];
        this.ids.set(output_index, item.call_id);
        const started: ModelEvent[] = [{ type: "tool_input_started", id: item.call_id, name: item.name }];
        if (item.arguments) started.push({ type: "tool_input_delta", id: item.call_id, delta: item.arguments });
        return started;
      }
      case "response.function_call_arguments.delta": {
        const { output_index, delta } = event as { output_index: number; delta: string };
        this.pending.set(output_index, (this.pending.get(output_index) ?? "") + delta);
        const id = this.ids.get(output_index);
        return id === undefined || delta === "" ? [] : [{ type: "tool_input_delta", id, delta }];
      }
      case "response.output_item.done": {
        const { output_index, item } = event as { output_index: number; item: { type: string } };
        if (item.type === "reasoning") return [{ type: "reasoning", part: reasoningOfItem(item as Record<string, unknown>) }];
        if (isHostedItem(item)) return [{ type: "provider_item", provider: "openai-responses", item }];
        if (item.type === "message") {
          // The message's id goes back with its text (the API ties a reasoning item to what followed it).
          const { id } = item as { id?: unknown };
          return typeof id === "string" ? [{ type: "text_state", provider: OPENAI_RESPONSES, data: { id } }] : [];
        }
        // An item toolrx cannot keep may be one the model waits on (a computer or shell call): fail rather than drop it.
        if (item.type !== "function_call") throw new TypeError(`OpenAI sent a ${JSON.stringify(item.type)} output item, which toolrx has no place for`);
        const done = item as FunctionCallItem;
        const streamed = this.pending.get(output_index) ?? "";
        this.pending.delete(output_index);
        this.ids.delete(output_index);
        this.called = true;
        return [{ type: "tool_call", call: functionCall({ ...done, arguments: done.arguments ?? streamed }) }];
      }
      case "response.completed":
        this.ended = true;
        return [...usageOf((event as { response: ResponseStatusLike }).response), { type: "finish", reason: this.called ? "tool_calls" : "stop" }];
      case "response.incomplete": {
        this.ended = true;
        const { response } = event as { response: ResponseStatusLike };
        const reason = response.incomplete_details?.reason;
        return [...usageOf(response), { type: "finish", reason: reason === "content_filter" ? "content_filter" : "length" }];
      }
      case "response.failed": {
        const error = (event as { response: ResponseStatusLike }).response.error;
        throw responseError(error?.code ?? "failed", error?.message ?? "the response failed");
      }
      case "error": {
        const { code, message } = event as { code: string | null; message: string };
        throw responseError(code ?? "error", message);
      }
      default:
        return [];
    }
  }

  end(): ModelEvent[] {
    // Without its terminal event the response was cut off; a call still streaming is dropped.
    return this.ended ? [] : [{ type: "finish", reason: "error", error: new TruncatedStreamError("OpenAI Responses", "response.completed") }];
  }
}

/** The response's `usage` as a `usage` event, when it has one. */
function usageOf(response: ResponseStatusLike | undefined): ModelEvent[] {
  const usage = response?.usage;
  if (!isRecord(usage)) return [];
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  if (input === undefined || output === undefined) return [];
  const cached = isRecord(usage.input_tokens_details) ? count(usage.input_tokens_details.cached_tokens) : undefined;
  const reasoning = isRecord(usage.output_tokens_details) ? count(usage.output_tokens_details.reasoning_tokens) : undefined;
  return [usageEvent(tokenUsage(input, output, cached, reasoning), response?.id, response?.model)];
}

/** An in-stream failure, which the SDK passes on as an event rather than throwing. */
function responseError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(`OpenAI response failed (${code}): ${message}`), { code });
}
