import { describe } from "../../tool/tool-error.js";
import type { AgentEnv } from "../options/index.js";
import type { PendingApproval, PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { TurnOutcome } from "../turn/index.js";
import type { ToolCall } from "../../tool/tool-call.js";

/** Why a run ended, and the details a host needs to act on it. */
export interface AgentHalt {
  readonly haltedReason: string;
  readonly metadata: Record<string, unknown>;
}

/** Everything a turn left for the host, listed on whichever halt ends it; empty lists are left out. */
export interface PendingWork {
  pendingQuestions?: readonly PendingQuestion[];
  pendingApprovals?: readonly PendingApproval[];
  manualTurnIndex?: number;
  manualToolCalls?: readonly ToolCall[];
}

/**
 * After a turn, the first reason that applies ends the loop, in ALLM's order (CONTRACT §9):
 * a halting call (ask_user, tool_error, a handler's own reason; the lowest position wins), a
 * question still open, calls awaiting approval, manual calls, the model asking for no tool,
 * `haltWhen`, `maxTurns`. Whichever wins, its metadata lists all the turn's pending work, so the
 * host answers it in one go. Undefined: go on with the next turn. `modelCalls` counts this run's
 * model requests so far.
 *
 * @throws what `haltWhen` throws, or a TypeError when it answers something other than a boolean.
 */
export function haltAfter(outcome: TurnOutcome, env: AgentEnv, modelCalls: number): AgentHalt | undefined {
  const pending = pendingWork(outcome);
  const { halt, questions } = outcome;
  if (halt !== undefined) {
    const { haltedReason, ...metadata } = halt;
    return { haltedReason, metadata: { ...metadata, ...pending } };
  }
  const first = questions[0];
  if (first !== undefined) {
    return {
      haltedReason: "ask_user",
      metadata: { pendingQuestion: first.question, pendingToolCallId: first.toolCallId, askUserOpts: first.opts, ...pending },
    };
  }
  if (pending.pendingApprovals !== undefined) return { haltedReason: "approval_required", metadata: { ...pending } };
  if (pending.manualToolCalls !== undefined) return { haltedReason: "manual_tool_calls", metadata: { ...pending } };
  const { assistant } = outcome;
  if (assistant === undefined) return undefined; // a resume settled; the model is asked next
  if (assistant.toolCalls === undefined) return { haltedReason: "completed", metadata: { finishReason: outcome.finishReason } };
  if (env.haltWhen !== undefined) {
    const stop: unknown = env.haltWhen({ turn: outcome.turn, assistant, toolMessages: outcome.toolMessages });
    if (typeof stop !== "boolean") throw new TypeError(`Expected \`haltWhen\` to return a boolean, got ${describe(stop)}`);
    if (stop) return { haltedReason: "halt_when", metadata: { haltWhenTurn: outcome.turn } };
  }
  if (modelCalls >= env.maxTurns) return { haltedReason: "max_turns", metadata: { maxTurns: env.maxTurns } };
  return undefined;
}

function pendingWork(outcome: TurnOutcome): PendingWork {
  const work: PendingWork = {};
  if (outcome.questions.length > 0) work.pendingQuestions = outcome.questions;
  if (outcome.awaitingApproval.length > 0) {
    work.pendingApprovals = outcome.awaitingApproval.map((call): PendingApproval => ({ toolCallId: call.id, toolName: call.name, arguments: call.arguments }));
  }
  if (outcome.manual.length > 0) {
    work.manualTurnIndex = outcome.turn;
    work.manualToolCalls = outcome.manual;
  }
  return work;
}
