import type { Unsubscribable } from "rxjs";
import type { ToolEvent } from "../results/index.js";
import type { Deadlines } from "../deadlines/index.js";
import type { Abandoned } from "./late-settlement.js";
import type { CallIdentity } from "../../tool/tool-call.js";
import type { ToolError } from "../../tool/tool-error.js";

/**
 * Where a running call reports to: the pool that owns its concurrency slot. Generic in the run
 * it is given back, so that this seam names no implementation and imports nothing above it.
 */
export interface CallSink<Run> {
  /** True once the stream is unsubscribed or failed: nothing more may start. */
  readonly closed: boolean;
  /** Why the stream closed: the signal's reason, an input error, or an unsubscribe AbortError. */
  readonly closeReason: unknown;
  readonly deadlines: Deadlines;
  /** The call in its synchronous start (its `started` event, its handler's synchronous part), if any. */
  current: Run | undefined;
  /** Scheduler time at a handler's start, possibly a reading microseconds old. */
  startClock(): number;
  /** Scheduler time now, when a handler returned or settled. */
  endClock(): number;
  /** Make the next {@link CallSink.startClock} read the clock afresh. */
  forgetClock(): void;
  next(event: ToolEvent): void;
  /** The call went asynchronous: it must be cancellable from now on. */
  track(run: Run): void;
  /** The `not_found` answer for a call whose tool the batch does not have. */
  notFound(who: CallIdentity): ToolError;
  /**
   * The call finished (its tail event is out); `tracked` says whether `track` was called, `now`
   * is the clock as read when its handler settled, if it was read on this stack.
   */
  done(run: Run, tracked: boolean, now?: number): void;
  /** Call `run.graceOver(abandoned)` after `settleGrace`, unless the stream is torn down first. */
  watch(run: Run, abandoned: Abandoned): Unsubscribable;
}
