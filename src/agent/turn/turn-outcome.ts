import type { HaltMetadata } from "../../run/results/run-result.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { AssistantMessage, Message, ToolMessage } from "../../tool/message.js";
import type { ToolCall } from "../../tool/tool-call.js";
import type { AgentEvent } from "../events/index.js";
import type { FinishReason, TokenUsage } from "../model/index.js";

/** What a turn added and left open, for the loop to decide whether to go on. */
export interface TurnOutcome {
  readonly turn: number;
  /** What this turn added to the conversation, in order. */
  readonly messages: readonly Message[];
  /** How many of `messages` the turn already put in the conversation (a resume's, before the model was asked). */
  readonly committed: number;
  /** Undefined when the turn settled a resume and stopped before asking the model. */
  readonly assistant: AssistantMessage | undefined;
  readonly toolMessages: readonly ToolMessage[];
  /** The lowest-position halt of the calls that ran (ask_user, tool_error, a handler's own). */
  readonly halt: HaltMetadata | undefined;
  readonly awaitingApproval: readonly ToolCall[];
  readonly manual: readonly ToolCall[];
  /** Every question of the turn still waiting for the user's words, in the model's order. */
  readonly questions: readonly PendingQuestion[];
  readonly finishReason: FinishReason | undefined;
}

/** Where a turn reports: the loop. */
export interface TurnSink {
  emit(event: AgentEvent): void;
  /** The turn cannot complete (model error, malformed event, an approval rule threw): it adds nothing. */
  failed(error: unknown): void;
  completed(outcome: TurnOutcome): void;
  /** The model reported the tokens its call used (a failed turn's count too: they were spent). */
  usage(usage: TokenUsage): void;
}
