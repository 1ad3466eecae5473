import type { ObservableInput } from "rxjs";
import type { ToolEvent } from "../run/events.js";
import type { RunOptions } from "../run/run-options.js";
import type { ToolResolver } from "../resolve/resolver.js";
import type { AssistantMessage, Message, ToolMessage } from "../tool/message.js";

import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";

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
}

/** Why a model stopped, in the provider-neutral words of §9. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "error";

/**
 * Tokens a model call consumed, as the provider counted them. `cachedInputTokens` is part of
 * `inputTokens` (read from the provider's prompt cache), `reasoningTokens` part of
 * `outputTokens`: sum the two totals, never the parts on top of them.
 */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

/**
 * What a model emits while it streams: text as it comes, each tool call once complete, the
 * tokens the call used (before `finish`, when the provider reports them, with the provider's
 * response id and the model that actually answered), and how it finished.
 */
export type ModelEvent =
  | { readonly type: "text_delta"; readonly text: string }
  | { readonly type: "tool_call"; readonly call: ToolCall }
  | { readonly type: "usage"; readonly usage: TokenUsage; readonly responseId?: string; readonly responseModel?: string }
  | { readonly type: "finish"; readonly reason: FinishReason; readonly error?: unknown };

/**
 * A model: called once per turn, it streams {@link ModelEvent}s. Any `ObservableInput` works (an
 * Observable, an async iterable, a promise of an array), so an async generator is a model.
 */
export type Model = (request: ModelRequest) => ObservableInput<ModelEvent>;

/** One turn, as `haltWhen` sees it. */
export interface TurnResult {
  readonly turn: number;
  readonly assistant: AssistantMessage;
  readonly toolMessages: readonly ToolMessage[];
}

/** What the loop tells as it runs; `agent_halted` is always the last event. */
export type AgentEvent =
  | { readonly type: "turn_started"; readonly turn: number }
  | { readonly type: "text_delta"; readonly turn: number; readonly text: string }
  | { readonly type: "tool_event"; readonly turn: number; readonly event: ToolEvent }
  /** What this turn added to the conversation. */
  | { readonly type: "turn_completed"; readonly turn: number; readonly messages: readonly Message[] }
  | {
      readonly type: "agent_halted";
      readonly haltedReason: string;
      readonly metadata: Record<string, unknown>;
      /** The whole conversation, input included. */
      readonly messages: readonly Message[];
    };

/** Options of {@link streamAgent} and {@link runAgent}: every {@link RunOptions} applies to each turn's tool calls. */
export interface AgentOptions extends RunOptions {
  readonly model: Model;
  readonly tools: readonly Tool[] | ToolResolver;
  /** The conversation so far. */
  readonly messages: readonly Message[];
  /** Model calls at most in this run. Default 8. */
  readonly maxTurns?: number;
  /** Checked after each turn that did not already end the loop. */
  readonly haltWhen?: (turn: TurnResult) => boolean;
  /** `"manual"`: no tool runs; the model's calls are handed to the host. Default `"auto"`. */
  readonly mode?: "auto" | "manual";
}

/** A finished run: why it ended, the details, and the whole conversation. */
export interface AgentResult {
  readonly haltedReason: string;
  readonly metadata: Record<string, unknown>;
  readonly messages: readonly Message[];
}
