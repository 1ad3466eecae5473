import type { Interrupt, RunFinishedOutcome, TokenUsage as AgUiTokenUsage } from "@ag-ui/core";
import type { AgentHaltedEvent } from "../index.js";
import type { HaltMetadata } from "../ui-protocol/index.js";
import { jsonSafe } from "../util/json-safe.js";

/** How a run that did not fail ends for the client: the interrupts it must answer, or success with the calls it owns. */
export function outcomeOf(event: AgentHaltedEvent<string>): RunFinishedOutcome {
  if (event.haltedReason === "cancelled") return { type: "cancelled" };
  const metadata = event.metadata as HaltMetadata;
  const interrupts: Interrupt[] = [
    ...(metadata.pendingApprovals ?? []).map(
      (p): Interrupt => ({
        id: `approval:${p.toolCallId}`,
        reason: "approval_required",
        message: `Approve ${p.toolName}?`,
        toolCallId: p.toolCallId,
        metadata: { toolName: p.toolName, arguments: jsonSafe(p.arguments), ...(p.token === undefined ? {} : { token: p.token }) },
      }),
    ),
    ...(metadata.pendingQuestions ?? []).map(
      (q): Interrupt => ({
        id: `ask:${q.toolCallId}`,
        reason: "ask_user",
        message: q.question,
        metadata: { toolCallId: q.toolCallId, opts: jsonSafe(q.opts) },
      }),
    ),
  ];
  if (interrupts.length > 0) return { type: "interrupt", interrupts };
  const manual = (metadata.manualToolCalls ?? []).map((c) => c.id);
  return manual.length > 0 ? { type: "success", pendingToolCallIds: manual } : { type: "success" };
}

/** The run's usage as AG-UI counts it, one entry for the whole run. */
export function usageOf(usage: AgentHaltedEvent<string>["usage"]): AgUiTokenUsage[] | undefined {
  if (usage === undefined) return undefined;
  return [
    {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.inputTokens + usage.outputTokens,
      ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
      ...(usage.reasoningTokens === undefined ? {} : { reasoningTokens: usage.reasoningTokens }),
    },
  ];
}
