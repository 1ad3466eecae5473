import type { Unsubscribable } from "rxjs";
import type { Abandoned, CallRun } from "../call/index.js";
import type { RunEnv } from "../options/index.js";

/**
 * The pool's bookkeeping of what it must be able to stop: the calls that went asynchronous and
 * the abandoned attempts whose grace period is under way. Functions of the pool, which holds
 * this state (internal fields, shared with this file only).
 */
export interface RunningCalls {
  readonly env: RunEnv;
  /**
   * The calls that went asynchronous, each knowing its position (`CallRun.runningAt`): adding
   * and removing one is a push and a swap, a sixth of an async call's cost as a `Set` (issue 14).
   */
  readonly running: CallRun[];
  watched: Set<Abandoned> | undefined;
}

export function track(pool: RunningCalls, run: CallRun): void {
  run.runningAt = pool.running.length;
  pool.running.push(run);
}

export function untrack(pool: RunningCalls, run: CallRun): void {
  const at = run.runningAt;
  if (at < 0) return;
  run.runningAt = -1;
  const last = pool.running.pop() as CallRun;
  if (last !== run) {
    pool.running[at] = last;
    last.runningAt = at;
  }
}

/** Call `run.graceOver(abandoned)` after `settleGrace`, unless {@link stopAll} comes first. */
export function watch(pool: RunningCalls, run: CallRun, abandoned: Abandoned): Unsubscribable {
  pool.watched ??= new Set();
  const watched = pool.watched;
  watched.add(abandoned);
  const grace = pool.env.scheduler.schedule(onGrace, pool.env.settleGrace, { run, abandoned, watched });
  return {
    unsubscribe() {
      watched.delete(abandoned);
      grace.unsubscribe();
    },
  };
}

/** The pool closed: cancel every running call with `reason`, and report no grace period's end. */
export function stopAll(pool: RunningCalls, reason: unknown): void {
  // Taken out first: what a cancelled handler does on its abort cannot reorder the list under us.
  for (const run of pool.running.splice(0)) {
    run.runningAt = -1;
    run.cancel(reason);
  }
  for (const abandoned of pool.watched ?? []) {
    abandoned.reported = true;
    abandoned.grace?.unsubscribe();
  }
  pool.watched = undefined;
}

function onGrace(this: unknown, state: { run: CallRun; abandoned: Abandoned; watched: Set<Abandoned> } | undefined): void {
  if (state === undefined) return;
  state.watched.delete(state.abandoned);
  state.run.graceOver(state.abandoned);
}
