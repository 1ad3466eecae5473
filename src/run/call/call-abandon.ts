import { isThenable } from "../../tool/results.js";
import { settle } from "../../util/safe.js";
import { CallContext } from "./call-context.js";
import { deliver, type CallReportBase, type ExecutorFate } from "../results/index.js";
import { DONE, type CallState } from "./call-state.js";
import { fated, settledLate, stillRunning, type Abandoned } from "./late-settlement.js";

/**
 * The attempts a call stopped waiting for (timed out, or cancelled by id) while their handlers
 * still ran: each is recorded, when a report listener wants to hear of it, and reported once,
 * whichever comes first of its late settlement, its executor's word on its fate, or the end of
 * its grace period.
 */

/** Record the attempt of `ctx` as abandoned, and start its grace period. */
export function abandon(run: CallState, ctx: CallContext, why: "timeout" | "cancelled"): void {
  if (run.env.onReport === undefined) return;
  const abandoned: Abandoned = { ctx, at: run.sink.deadlines.now(), why, grace: undefined, reported: false };
  run.abandoned ??= [];
  run.abandoned.push(abandoned);
  abandoned.grace = run.sink.watch(run, abandoned);
}

/** The grace period after abandoning an attempt passed, and it has not settled. */
export function reportGraceOver(run: CallState, abandoned: Abandoned): void {
  if (abandoned.reported) return;
  abandoned.reported = true;
  abandoned.grace = undefined;
  const listener = run.env.onReport;
  if (listener !== undefined) deliver(listener, stillRunning(base(run), abandoned, run.env.settleGrace));
}

/** An attempt's executor said what became of it (`reportFate`): report it, if the runner abandoned it and has not reported it yet. */
export function reportFate(run: CallState, ctx: CallContext, fate: ExecutorFate): void {
  const abandoned = unreported(run, ctx);
  const listener = run.env.onReport;
  if (abandoned !== undefined && listener !== undefined) deliver(listener, fated(base(run), abandoned, fate, run.sink.deadlines.now()));
}

/** An attempt settled after the runner stopped waiting for it: report it, once. */
export function late(run: CallState, ctx: CallContext, result: unknown): void {
  const abandoned = unreported(run, ctx);
  const listener = run.env.onReport;
  if (abandoned !== undefined && listener !== undefined) deliver(listener, settledLate(base(run), abandoned, result, run.sink.deadlines.now()));
}

/**
 * The stream closed while the handler ran synchronously (it, or something it called, let go
 * of the stream). The pool could not reach this call yet, so abort it here.
 */
export function abandonIfClosed(run: CallState, ctx: CallContext, returned: unknown): boolean {
  if (!run.sink.closed) return false;
  run.phase = DONE;
  CallContext.abort(ctx, run.sink.closeReason);
  if (isThenable(returned)) settle(returned, undefined, ignore, ignore);
  return true;
}

/** The abandoned attempt of `ctx`, now marked reported, or `undefined` when there is nothing (more) to report on it. */
function unreported(run: CallState, ctx: CallContext): Abandoned | undefined {
  const abandoned = run.abandoned?.find((a) => a.ctx === ctx);
  if (abandoned === undefined || abandoned.reported || run.env.onReport === undefined) return undefined;
  abandoned.reported = true;
  abandoned.grace?.unsubscribe();
  abandoned.grace = undefined;
  return abandoned;
}

function base(run: CallState): CallReportBase {
  return { index: run.index, toolCallId: run.toolCallId, toolName: run.toolName };
}

function ignore(): void {}
