import { reportFate, type HandlerContext, type HandlerResult, type LogEntry, type ProgressUpdate } from "../index.js";
import { decodeThrown } from "../node/index.js";
import { JobSignal } from "./job-signal.js";
import type { LaneLimit } from "./lanes.js";
import { wellFormed } from "./remote-context.js";

/** One call the executor waits on. */
export interface Waiter {
  readonly jobId: string;
  readonly toolName: string;
  readonly toolCallId: string;
  readonly lanes: readonly LaneLimit[];
  readonly promise: Promise<HandlerResult>;
  /** Aborted with the runner's reason when the runner stops waiting: stops a lease wait. */
  readonly signal: AbortSignal;
  /** How long the worker's heartbeat on this job lasts without renewal, in ms. */
  readonly heartbeat: number;
  /** The add was attempted: from then on the job may exist. */
  sent: boolean;
  /** The add succeeded. */
  added: boolean;
  /** Settles once the add has (succeeded or failed): a cancel waits for it before it removes the job. */
  adding: Promise<void> | undefined;
  settled: boolean;
  /** This producer's cancel removed the job, with this reason: its `removed` event answers it. */
  removedBy: string | undefined;
  checkedAt: number;
  /** When (this process's clock) a worker was seen taking the job; `undefined` while it waits. */
  activeAt: number | undefined;
  /** The worker's heartbeat was seen at least once: the handler was about to start, or ran. */
  beaten: boolean;
  /** The name the worker wrote in its heartbeat, when one was seen. */
  worker: string | undefined;
  progress(update: ProgressUpdate): void;
  /** Tell the runner the worker running it is gone: the handler will never settle. */
  killed(): void;
  resolve(result: HandlerResult): void;
  detach(): void;
}

/**
 * A waiter for `jobId`, the call behind `ctx`: the runner aborting `ctx.signal` aborts the
 * waiter's own signal and calls `cancel`, once.
 */
export function openWaiter(
  jobId: string,
  at: { toolName: string; toolCallId: string },
  lanes: readonly LaneLimit[],
  heartbeat: number,
  ctx: HandlerContext,
  cancel: (waiter: Waiter, reason: unknown) => void,
): Waiter {
  let resolve!: (result: HandlerResult) => void;
  const promise = new Promise<HandlerResult>((r) => (resolve = r));
  // Not an AbortController: reading its `signal` built an EventTarget per call, for the rare call
  // that waits for a lease or is cancelled before it is sent.
  const local = new JobSignal();
  const signal = ctx.signal;
  const onAbort = (): void => {
    local.abort(signal.reason);
    cancel(waiter, signal.reason);
  };
  const waiter: Waiter = {
    jobId,
    ...at,
    lanes,
    promise,
    signal: local.asAbortSignal(),
    heartbeat,
    sent: false,
    added: false,
    adding: undefined,
    settled: false,
    removedBy: undefined,
    checkedAt: Date.now(),
    activeAt: undefined,
    beaten: false,
    worker: undefined,
    progress(update) {
      if (typeof update !== "object" || update === null) return;
      // A worker's ctx.log comes as { log: entry } on the same channel; the runner's ctx.log checks it.
      const { log } = update as { log?: LogEntry };
      // A malformed update the worker sent on is given to this runner as the handler gave it:
      // it drops it and reports it to this host, as it does an in-process call's.
      const malformed = "malformed" in update;
      try {
        if (log !== undefined) ctx.log(log);
        else if (malformed) ctx.progress(decodeThrown((update as { malformed: unknown }).malformed) as ProgressUpdate);
        else if (wellFormed(update)) ctx.progress(update);
      } catch {
        // The runner refuses reports once the call is answered; nothing to do.
      }
    },
    killed: () => reportFate(ctx, "killed"),
    resolve,
    detach: () => signal.removeEventListener("abort", onAbort),
  };
  // Aborted while the executor got ready (a first call's connect): never heard as an event.
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return waiter;
}
