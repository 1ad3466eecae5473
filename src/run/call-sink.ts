import type { Unsubscribable } from "rxjs";
import type { ToolEvent } from "../events.js";
import type { CallContext } from "./call-context.js";
import type { CallReportBase, LateSettlementReport } from "./call-report.js";
import type { Deadlines } from "./deadlines.js";
import type { CallRun } from "./run-one.js";
import type { CallIdentity } from "../tool-call.js";
import type { ToolError } from "../tool-error.js";

/** Where a running call reports to: the pool that owns its concurrency slot. */
export interface CallSink {
  /** True once the stream is unsubscribed or failed: nothing more may start. */
  readonly closed: boolean;
  /** Why the stream closed: the signal's reason, an input error, or an unsubscribe AbortError. */
  readonly closeReason: unknown;
  readonly deadlines: Deadlines;
  /** Scheduler time at a handler's start, possibly a reading microseconds old. */
  startClock(): number;
  /** Scheduler time now, when a handler returned or settled. */
  endClock(): number;
  /** Make the next {@link CallSink.startClock} read the clock afresh. */
  forgetClock(): void;
  next(event: ToolEvent): void;
  /** The call went asynchronous: it must be cancellable from now on. */
  track(run: CallRun): void;
  /** The `not_found` answer for a call whose tool the batch does not have. */
  notFound(who: CallIdentity): ToolError;
  /**
   * The call finished (its tail event is out); `tracked` says whether `track` was called, `now`
   * is the clock as read when its handler settled, if it was read on this stack.
   */
  done(run: CallRun, tracked: boolean, now?: number): void;
  /** Call `run.graceOver(abandoned)` after `settleGrace`, unless the stream is torn down first. */
  watch(run: CallRun, abandoned: Abandoned): Unsubscribable;
}

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
