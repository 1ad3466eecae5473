import type { ObservableInput } from "rxjs";
import type { ToolEvent } from "../run/events.js";
import type { CallReport } from "../run/call-report.js";
import type { PrepareTurn } from "./prepare-turn/prepare-turn.js";
import type { JournalOptions } from "./journal/journal.js";
import type { RunOptions } from "../run/run-options.js";
import type { ToolResolver } from "../resolve/resolver.js";
import type { AssistantMessage, Message, ProviderItem, ReasoningPart, ToolMessage } from "../tool/message.js";

import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";
import type { PendingApproval, PendingQuestion } from "../tool/approval/needs-approval.js";

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
 * Where some of a run's tokens went, one entry per source: narrow on `source`. `"model"` is the
 * run's own model calls, summed; `"subagent"` is one call of an `agentTool`, with the subagent's
 * whole usage (its own subagents' included) and its own breakdown.
 *
 * @example
 * for (const share of result.usageBreakdown ?? []) {
 *   if (share.source === "subagent") console.log(share.toolName, share.toolCallId, share.usage.outputTokens);
 * }
 */
export type UsageSource =
  | { readonly source: "model"; readonly usage: TokenUsage }
  | {
      readonly source: "subagent";
      /** The parent's turn the call ran in. */
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly usage: TokenUsage;
      readonly breakdown: readonly UsageSource[];
    };

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

/** One turn, as `haltWhen` sees it. */
export interface TurnResult {
  readonly turn: number;
  readonly assistant: AssistantMessage;
  readonly toolMessages: readonly ToolMessage[];
}

/**
 * The work a turn left for the host, listed on whichever halt ends it (questions, approvals and
 * manual calls of one turn are answered together); a list is left out when it is empty.
 */
export type PendingWork = {
  readonly pendingQuestions?: readonly PendingQuestion[];
  readonly pendingApprovals?: readonly PendingApproval[];
  readonly manualTurnIndex?: number;
  readonly manualToolCalls?: readonly ToolCall[];
};

/**
 * Why a run ended, with the details for that reason: narrow on `haltedReason`. A handler's own
 * halt reasons are `HandlerReason` (name yours as the type argument of `runAgent` or
 * `streamAgent`, such as `runAgent<"budget">(…)`; by default a result lists the loop's reasons
 * only), each with `{ haltToolCallId, haltResult }`.
 *
 * @example
 * const r = await runAgent<"budget">(options);
 * if (r.haltedReason === "approval_required") r.metadata.pendingApprovals; // readonly PendingApproval[]
 * if (r.haltedReason === "budget") r.metadata.haltResult; // unknown
 */
export type AgentEnding<HandlerReason extends string = never> =
  | {
      readonly haltedReason: "ask_user";
      readonly metadata: PendingWork & {
        readonly pendingQuestion: string;
        readonly pendingToolCallId: string;
        readonly askUserOpts: object;
        readonly pendingQuestions: readonly PendingQuestion[];
      };
    }
  | { readonly haltedReason: "tool_error"; readonly metadata: PendingWork & { readonly haltToolCallId: string; readonly onToolErrorException?: unknown } }
  | { readonly haltedReason: "approval_required"; readonly metadata: PendingWork & { readonly pendingApprovals: readonly PendingApproval[] } }
  | {
      readonly haltedReason: "manual_tool_calls";
      readonly metadata: PendingWork & { readonly manualTurnIndex: number; readonly manualToolCalls: readonly ToolCall[] };
    }
  | { readonly haltedReason: "completed"; readonly metadata: { readonly finishReason: Exclude<FinishReason, "error" | "tool_calls"> } }
  | { readonly haltedReason: "error"; readonly metadata: { readonly error: unknown } }
  | { readonly haltedReason: "halt_when"; readonly metadata: { readonly haltWhenTurn: number } }
  | { readonly haltedReason: "max_turns"; readonly metadata: { readonly maxTurns: number } }
  | { readonly haltedReason: "cancelled"; readonly metadata: { readonly reason: unknown } }
  | { readonly haltedReason: HandlerReason; readonly metadata: PendingWork & { readonly haltToolCallId: string; readonly haltResult: unknown } };

/** The last event of a run: why it ended, and the whole conversation, input included. */
export type AgentHaltedEvent<HandlerReason extends string = never> = AgentEnding<HandlerReason> & {
  readonly type: "agent_halted";
  /** The whole conversation, input included. */
  readonly messages: readonly Message[];
  /** The tokens of every model call of this run and of its subagents, summed; absent when none were reported. */
  readonly usage?: TokenUsage;
  /** Where `usage` went: the run's own model calls, then each subagent call; present with `usage`. */
  readonly usageBreakdown?: readonly UsageSource[];
};

/** What the loop tells as it runs; `agent_halted` is always the last event. */
export type AgentEvent<HandlerReason extends string = never> =
  | { readonly type: "turn_started"; readonly turn: number }
  | { readonly type: "text_delta"; readonly turn: number; readonly text: string }
  | ReasoningEvent
  | { readonly type: "tool_event"; readonly turn: number; readonly event: ToolEvent }
  | ToolInputEvent
  /** Something that happened inside a running call (progress, a recipe step, a retry): its `onCallReport` report. */
  | { readonly type: "call_report"; readonly turn: number; readonly report: CallReport }
  | SubagentEvent
  | ModelReplyEvent
  /** What this turn added to the conversation. */
  | { readonly type: "turn_completed"; readonly turn: number; readonly messages: readonly Message[] }
  | AgentHaltedEvent<HandlerReason>;

/**
 * The model's reply, complete: its text and its calls with the ids the model gave them, as soon
 * as the model is done and before its calls settle (`turn_completed` comes only after every call
 * finished). A host checkpoints the turn in flight from it: a restart that replays this message
 * keeps the original call ids, which a new request to the model would not (OpenAI's are random).
 */
export interface ModelReplyEvent {
  readonly type: "model_reply";
  readonly turn: number;
  /** The assistant message as the turn will add it: `toolCalls` in the model's order, absent when there are none. */
  readonly message: AssistantMessage;
  /** The model's own `finish` reason, else `"tool_calls"` when it asked for tools, `"stop"` otherwise. */
  readonly finishReason: FinishReason;
}

/**
 * The model's reasoning as it streams: `delta`s of its text, then `complete` once the piece is
 * whole (`part` is what the assistant message keeps). A piece ends before the model's next text,
 * call or the end of its reply. A UI shows it apart from the answer.
 */
export type ReasoningEvent =
  | { readonly type: "reasoning"; readonly turn: number; readonly state: "delta"; readonly text: string }
  | { readonly type: "reasoning"; readonly turn: number; readonly state: "complete"; readonly part: ReasoningPart };

/**
 * A tool call as the model writes it, before it runs, so a UI can show it forming: `started`
 * (its id and name are known), `streaming` (each piece of argument text; `text` is all of it so
 * far), then `complete` (the call as the loop will run it). Only models that stream arguments
 * (the provider models here do) give them; a call handed over whole goes straight to its
 * `tool_event`s.
 */
export interface ToolInputEvent {
  readonly type: "tool_input";
  readonly turn: number;
  readonly state: "started" | "streaming" | "complete";
  readonly toolCallId: string;
  readonly toolName: string;
  /** The argument text so far (for `complete`, the provider's text, or the arguments as JSON). */
  readonly text: string;
  /** What this event added to `text` (`""` for `started` and `complete`). */
  readonly delta: string;
}

/**
 * An event of a subagent running inside the call `toolCallId` of this turn (see `agentTool`):
 * a UI nests it under that call. A subagent's own subagents arrive nested the same way, one
 * `subagent_event` inside another.
 */
export interface SubagentEvent {
  readonly type: "subagent_event";
  readonly turn: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly event: AgentEvent;
}

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
  /**
   * Asked before each model request: which tools the model sees this turn (a call to any other
   * is answered `not_found`), and how the request is amended (messages, model options). See
   * {@link TurnPlan}. May be async. Default: every tool, the conversation as it is.
   */
  readonly prepareTurn?: PrepareTurn;
  /**
   * Tool calls the loop runs at most per model turn. The model's calls beyond it are never run:
   * each is answered, in the model's order, with an error the model reads (the limit, and to ask
   * again in a later turn if it still needs the call), so the conversation stays complete. A
   * resumed turn's calls were counted when the model made them. Default: no limit.
   */
  readonly maxCallsPerTurn?: number;
  /**
   * Record the run in a journal, so that the same conversation started again after a crash
   * resumes from it: a recorded reply is not asked of the model again, a recorded outcome
   * answers its call, a call cut off mid-run is re-attached or answered with its fate unknown.
   * See docs/durable.md.
   */
  readonly journal?: JournalOptions;
}

/** A finished run: why it ended, the details (narrow on `haltedReason`), and the whole conversation. */
export type AgentResult<HandlerReason extends string = never> = AgentEnding<HandlerReason> & {
  readonly messages: readonly Message[];
  /**
   * The tokens of every model call of this run, summed (a failed call's too), with those of the
   * subagents its `agentTool` calls ran; absent when none were reported.
   */
  readonly usage?: TokenUsage;
  /** Where `usage` went: the run's own model calls, then each subagent call; present with `usage`. */
  readonly usageBreakdown?: readonly UsageSource[];
};
