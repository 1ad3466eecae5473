import { describe } from "../tool/tool-error.js";
import type { AgentEnv } from "./agent-options.js";
import type { PendingApproval } from "../tool/needs-approval.js";
import type { TurnOutcome } from "./turn.js";

/** Why a run ended, and the details a host needs to act on it. */
export interface AgentHalt {
  readonly haltedReason: string;
  readonly metadata: Record<string, unknown>;
}

/**
 * After a turn, the first reason that applies ends the loop, in ALLM's order (CONTRACT §9):
 * a halting call (ask_user, tool_error, a handler's own reason; the lowest position wins), calls
 * awaiting approval, manual calls, the model asking for no tool, `haltWhen`, `maxTurns`.
 * Undefined: go on with the next turn. `modelCalls` counts this run's model requests so far.
 *
 * @throws what `haltWhen` throws, or a TypeError when it answers something other than a boolean.
 */
export function haltAfter(outcome: TurnOutcome, env: AgentEnv, modelCalls: number): AgentHalt | undefined {
  const { halt } = outcome;
  if (halt !== undefined) {
    const { haltedReason, ...metadata } = halt;
    return { haltedReason, metadata };
  }
  if (outcome.awaitingApproval.length > 0) {
    const pendingApprovals: PendingApproval[] = outcome.awaitingApproval.map((call) => ({
      toolCallId: call.id,
      toolName: call.name,
      arguments: call.arguments,
    }));
    return { haltedReason: "approval_required", metadata: { pendingApprovals } };
  }
  if (outcome.manual.length > 0) {
    return { haltedReason: "manual_tool_calls", metadata: { manualTurnIndex: outcome.turn, manualToolCalls: outcome.manual } };
  }
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
