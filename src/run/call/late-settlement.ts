import type { CallContext } from "./call-context.js";
import type { CallReportBase, LateSettlementReport, ExecutorFate } from "../results/index.js";
import type { Unsubscribable } from "rxjs";

/** An attempt the runner stopped waiting for while its handler still ran. */
export interface Abandoned {
  readonly ctx: CallContext;
  readonly at: number;
  readonly why: "timeout" | "cancelled";
  grace: Unsubscribable | undefined;
  reported: boolean;
}

/** The report on an abandoned attempt that settled after all, `lateBy` ms after it was abandoned. */
export function settledLate(base: CallReportBase, abandoned: Abandoned, result: unknown, now: number): LateSettlementReport {
  const { index, toolCallId, toolName } = base;
  const { ctx, why } = abandoned;
  return { type: "late_settlement", index, toolCallId, toolName, attempt: ctx.attempt, abandoned: why, settled: true, result, lateBy: now - abandoned.at };
}

/** The report on an abandoned attempt still running when its grace period ended. */
export function stillRunning(base: CallReportBase, abandoned: Abandoned, grace: number): LateSettlementReport {
  const { index, toolCallId, toolName } = base;
  return { type: "late_settlement", index, toolCallId, toolName, attempt: abandoned.ctx.attempt, abandoned: abandoned.why, settled: false, grace };
}

/** The report on an abandoned attempt whose executor said what became of it, `now - at` ms after it was abandoned. */
export function fated(base: CallReportBase, abandoned: Abandoned, fate: ExecutorFate, now: number): LateSettlementReport {
  const { index, toolCallId, toolName } = base;
  return {
    type: "late_settlement",
    index,
    toolCallId,
    toolName,
    attempt: abandoned.ctx.attempt,
    abandoned: abandoned.why,
    settled: false,
    grace: now - abandoned.at,
    fate,
  };
}
