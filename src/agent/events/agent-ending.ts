import type { PendingApproval, PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { Message } from "../../tool/message.js";
import type { ToolCall } from "../../tool/tool-call.js";
import type { FinishReason, TokenUsage, UsageSource } from "../model/index.js";

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
