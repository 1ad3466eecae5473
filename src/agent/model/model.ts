import type { ObservableInput } from "rxjs";
import type { Message, ProviderItem, ReasoningPart } from "../../tool/message.js";
import type { Tool } from "../../tool/tool.js";
import type { ToolCall } from "../../tool/tool-call.js";
import type { TokenUsage } from "./usage.js";

/**
 * What the loop asks the model for on each turn. `signal` aborts when the run is unsubscribed,
 * cancelled, or the turn is abandoned: pass it on to the provider's SDK. It is the run's signal,
 * the same on every turn (a fresh AbortSignal per turn costs Node about 20 µs a turn); a listener
 * you add to it, remove when your request ends.
 */
export interface ModelRequest {
  /** The whole conversation so far, this run's earlier turns included. */
  readonly messages: readonly Message[];
  /** The tools the model may call (a resolver's `availableTools()`). */
  readonly tools: readonly Tool[];
  /** Numbered from 0 in each run. */
  readonly turn: number;
  readonly signal: AbortSignal;
  /** Model options for this request alone (a turn plan's `modelOptions`): the provider models send them over their own. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** Why a model stopped, in the provider-neutral words of §9. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "error";

/**
 * What a model emits while it streams: text as it comes, each tool call once complete, the
 * tokens the call used (before `finish`, when the provider reports them, with the provider's
 * response id and the model that actually answered), and how it finished.
 */
export type ModelEvent =
  | { readonly type: "text_delta"; readonly text: string }
  /**
   * The text streamed since the last `text_state` (or the reply's start) was one block of the
   * provider's, with this state to send back (a signature, an item id): kept in the assistant
   * message's `textState`.
   */
  | { readonly type: "text_state"; readonly provider: string; readonly data: Readonly<Record<string, unknown>> }
  /** More of the model's reasoning text, as it streams. */
  | { readonly type: "reasoning_delta"; readonly text: string }
  /**
   * A piece of reasoning is complete: `part.text` is all of it (the `reasoning_delta`s before it
   * were its stream), with the provider's state to send back. Reasoning deltas that no
   * `reasoning` event closes become a part of their text alone.
   */
  | { readonly type: "reasoning"; readonly part: ReasoningPart }
  | { readonly type: "tool_call"; readonly call: ToolCall }
  | { readonly type: "usage"; readonly usage: TokenUsage; readonly responseId?: string; readonly responseModel?: string }
  | { readonly type: "finish"; readonly reason: FinishReason; readonly error?: unknown }
  /** A tool call began to stream (optional: a model that sends only whole calls never says so). */
  | { readonly type: "tool_input_started"; readonly id: string; readonly name: string }
  /** More of a streaming call's argument text; `id` is the one `tool_input_started` gave. */
  | { readonly type: "tool_input_delta"; readonly id: string; readonly delta: string }
  /**
   * Something the provider ran itself (a `server_tool_use` block, a `web_search_call` item): kept
   * in the assistant message's `providerItems`, where the text so far puts it, and never run.
   */
  | { readonly type: "provider_item"; readonly provider: ProviderItem["provider"]; readonly item: ProviderItem["item"] };

/**
 * A model: called once per turn, it streams {@link ModelEvent}s. Any `ObservableInput` works (an
 * Observable, an async iterable, a promise of an array), so an async generator is a model.
 */
export type Model = (request: ModelRequest) => ObservableInput<ModelEvent>;
