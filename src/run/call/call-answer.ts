import { controlOf } from "../../tool/tool-control.js";
import { DONE, type CallState } from "./call-state.js";
import { outcomeOf, tailWithinBudget } from "../outcome/index.js";
import type { ToolExecutionCompleted, ToolTailEvent } from "../results/index.js";

/**
 * A call's answer: the outcome of what its last attempt returned, under the policy, encoded,
 * as its completed event and its tail event within the output budget; then its slot is freed.
 */
export function finish(run: CallState, returned: unknown, now?: number): void {
  close(run);
  answer(run, outcomeOf(returned, run, run.env), now);
}

/** Nothing more happens to the call: done before its outcome is decided, which may run a user's policy or encoder. */
export function close(run: CallState): void {
  run.phase = DONE;
  if (run.slot >= 0) run.sink.deadlines.remove(run);
}

/** Send a closed call's outcome (its completed event left on it, and `tail`) and free its slot: the rest of {@link finish}. */
export function answer(run: CallState, tail: ToolTailEvent, now?: number): void {
  const completed = run.completed as ToolExecutionCompleted;
  run.completed = undefined;
  run.sink.next(completed);
  const { tool } = run;
  // The model reads at most the budget; the completed event above keeps the whole value for the host.
  const budget = tool?.control === undefined ? run.env.outputBudget : (controlOf(tool)?.outputBudget ?? run.env.outputBudget);
  run.sink.next(budget === Infinity ? tail : tailWithinBudget(tail, budget));
  run.sink.done(run, run.tracked, now);
}

/** The call went asynchronous (or waits for a backoff): from now on the pool must be able to cancel it. */
export function track(run: CallState): void {
  if (!run.tracked) {
    run.tracked = true;
    run.sink.track(run);
  }
}
