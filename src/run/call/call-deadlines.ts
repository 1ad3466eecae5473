import { error } from "../../tool/results.js";
import { late, abandon } from "./call-abandon.js";
import { answer, close, finish, track } from "./call-answer.js";
import { CallContext } from "./call-context.js";
import { deliver } from "../results/index.js";
import { BACKOFF, RUNNING, type CallState } from "./call-state.js";
import { dueAt } from "../deadlines/index.js";
import { backoff, errorTerm, isRetryable, NO_ERROR } from "./retry.js";
import { DeadlineTimeout, timeoutOutcome, type Deadline } from "../outcome/index.js";
import { withAttempts } from "./with-attempts.js";

/**
 * An attempt's end, against its deadlines (the attempt's own, the idle one, the retries' total)
 * and the call's retry plan: a result in time is retried or answered, a deadline that passed
 * aborts the attempt.
 */

/** An attempt's handler returned or settled: unless a deadline passed meanwhile, that is its result. */
export function settled(run: CallState, ctx: CallContext, result: unknown): void {
  if (ctx !== run.ctx || run.phase !== RUNNING) {
    late(run, ctx, result);
    return;
  }
  if (run.clocked) {
    if (run.slot >= 0) run.sink.deadlines.remove(run);
    // A handler that blocked the event loop past its deadline returns before the timer can fire.
    const now = run.sink.endClock();
    const fired = expired(run, now);
    if (fired !== undefined) {
      expire(run, fired, true);
      return;
    }
    // The pool starts the next call with this reading.
    retryOrFinish(run, result, now);
    return;
  }
  retryOrFinish(run, result, undefined);
}

/** Retry the failed attempt when the plan allows and time remains; otherwise answer. */
function retryOrFinish(run: CallState, result: unknown, now: number | undefined): void {
  const retry = run.retry;
  if (retry !== undefined) {
    const { plan } = retry;
    const attempt = (run.ctx as CallContext).attempt;
    const term = errorTerm(result);
    if (term !== NO_ERROR) {
      if (attempt < plan.attempts && isRetryable(plan, term, attempt)) {
        const wait = backoff(plan, attempt);
        const at = run.sink.deadlines.now();
        if (dueAt(at, wait) < dueAt(retry.firstStart, retry.total)) {
          run.phase = BACKOFF;
          track(run);
          const listener = run.env.onReport;
          if (listener !== undefined) {
            const { index, toolCallId, toolName } = run;
            deliver(listener, { type: "attempt_failed", index, toolCallId, toolName, attempt, error: term, retryIn: wait });
          }
          if (run.phase === BACKOFF) run.sink.deadlines.add(run, dueAt(at, wait));
          return;
        }
      }
      result = withAttempts(result, term, attempt);
    }
  }
  finish(run, result, now);
}

/**
 * Whether a report from `ctx` still counts, restarting the idle deadline if so. A report that
 * comes after a deadline passed (the event loop was blocked, so the timer could not fire) is
 * too late, as a result would be: the call times out now instead of being revived.
 */
export function alive(run: CallState, ctx: CallContext): boolean {
  if (ctx !== run.ctx || run.phase !== RUNNING) return false;
  if (run.limits.idleTimeout === Infinity) return true;
  const now = run.sink.deadlines.now();
  const fired = expired(run, now);
  if (fired === undefined) {
    run.lastActive = now;
    return true;
  }
  if (run.slot >= 0) run.sink.deadlines.remove(run);
  expire(run, fired, false);
  return false;
}

/** Which deadline has passed at `now`, tested with the very sums {@link nextDue} sets. */
export function expired(run: CallState, now: number): Deadline | undefined {
  const limits = run.limits;
  if (now >= dueAt(run.attemptStart, limits.timeout)) return "toolTimeout";
  if (now >= dueAt(run.lastActive, limits.idleTimeout)) return "toolIdleTimeout";
  const { retry } = run;
  if (retry !== undefined && now >= dueAt(retry.firstStart, retry.total)) return "totalTimeout";
  return undefined;
}

/** When the running attempt's next deadline falls. */
export function nextDue(run: CallState): number {
  const { retry } = run;
  const total = retry === undefined ? Infinity : dueAt(retry.firstStart, retry.total);
  const limits = run.limits;
  return Math.min(dueAt(run.attemptStart, limits.timeout), dueAt(run.lastActive, limits.idleTimeout), total);
}

/** A deadline passed: abort the attempt and answer `timeout` (or retry it); a late result is ignored. */
export function expire(run: CallState, fired: Deadline, settled: boolean): void {
  const ctx = run.ctx as CallContext;
  // Its error is built when first read, if ever: see DeadlineTimeout.
  const timeout = new DeadlineTimeout(run, fired, run.limits, run.retry === undefined ? Infinity : run.retry.total, settled);
  // Recorded before the abort: an executor may say the attempt's fate from its abort listener.
  if (!settled) abandon(run, ctx, "timeout");
  CallContext.abortLazily(ctx, timeout);
  if (fired === "totalTimeout") finish(run, withAttempts(error(timeout.error), timeout.error, ctx.attempt));
  else if (run.retry !== undefined) retryOrFinish(run, error(timeout.error), undefined);
  else {
    close(run);
    answer(run, timeoutOutcome(timeout, run, run.env));
  }
}
