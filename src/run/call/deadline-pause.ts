import type { HandlerContext } from "../../tool/handler-context.js";
import { CallContext } from "./call-context.js";
import { nextDue } from "./call-deadlines.js";
import { RUNNING, type CallState } from "./call-state.js";

/**
 * Stop the clock of the attempt `ctx` belongs to, and get the function that starts it again
 * where it stopped: for an executor that hands the call to a place where it waits before its
 * handler starts (a worker thread busy with the call before it), so that the attempt's
 * `toolTimeout` and `toolIdleTimeout` cover only the handler's own time, as they do in-process.
 * The retries' `totalTimeout` runs on. While stopped, neither deadline fires; the attempt's
 * result, cancel and signal work as ever. `undefined` when the runner did not make `ctx`, no
 * deadline applies, or the attempt is over. Resuming twice, or after the attempt, does nothing.
 */
export function pauseDeadline(ctx: HandlerContext): (() => void) | undefined {
  if (!(ctx instanceof CallContext)) return undefined;
  const run = CallContext.targetOf(ctx) as CallState;
  if (!run.clocked || run.ctx !== ctx || run.phase !== RUNNING || run.attemptStart === Infinity) return undefined;
  const deadlines = run.sink.deadlines;
  const at = deadlines.now();
  const spent = at - run.attemptStart;
  const idle = at - run.lastActive;
  // `now >= Infinity + span` never holds: no test in call-deadlines.ts finds these passed.
  run.attemptStart = run.lastActive = Infinity;
  rearm(run);
  return () => {
    if (run.ctx !== ctx || run.phase !== RUNNING || run.attemptStart !== Infinity) return;
    const now = deadlines.now();
    run.attemptStart = now - spent;
    run.lastActive = now - idle;
    rearm(run);
  };
}

/** Move a call already in the deadline heap to its new due time; one not in it yet is added when it goes asynchronous. */
function rearm(run: CallState): void {
  if (run.slot < 0) return;
  run.sink.deadlines.remove(run);
  run.sink.deadlines.add(run, nextDue(run));
}
