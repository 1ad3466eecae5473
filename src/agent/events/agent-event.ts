import type { CallReport } from "../../run/results/call-report.js";
import type { ToolEvent } from "../../run/results/events.js";
import type { AssistantMessage, Message, ReasoningPart } from "../../tool/message.js";
import type { FinishReason } from "../model/index.js";
import type { AgentHaltedEvent } from "./agent-ending.js";

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
