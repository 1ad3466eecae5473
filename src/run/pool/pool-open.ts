import type { Unsubscribable } from "rxjs";
import { cancelById, type CancelScope } from "./pool-cancel.js";
import type { SharedAbort } from "./shared-abort.js";

/** What opening a pool needs of it: its cancel scope, failing it, and letting go of it. */
export interface OpenScope extends CancelScope {
  fail(reason: unknown): void;
  /** The consumer let go: cancel what runs (a completed or failed pool is already closed). */
  letGo(): void;
}

/**
 * Start a pool's work: listen to the run's signal and `cancel` source, then drain. Returns the
 * teardown that stops listening and cancels whatever still runs. A `cancel` source that errors
 * fails the batch with its error: the caller can no longer stop calls, so nothing should go on
 * running as if it could. `shared`: the one listener of the env's signal that every pool under it
 * joins (the agent loop's turns), instead of a listener of its own.
 */
export function openPool(pool: OpenScope, shared: SharedAbort | undefined): () => void {
  const { signal, cancel } = pool.env;
  if (shared !== undefined && shared.signal !== signal) throw new TypeError("A pool's shared abort listens to another signal than its own");
  const onAbort = () => pool.fail(signal?.reason);
  let cancels: Unsubscribable | undefined;
  if (signal?.aborted) {
    pool.fail(signal.reason);
  } else {
    if (shared !== undefined) shared.add(pool);
    else signal?.addEventListener("abort", onAbort);
    if (cancel !== undefined) {
      cancels = cancel.subscribe({ next: (request) => cancelById(pool, request), error: (e: unknown) => pool.fail(e) });
    }
    pool.drain();
  }
  return () => {
    if (shared !== undefined) shared.delete(pool);
    else signal?.removeEventListener("abort", onAbort);
    cancels?.unsubscribe();
    pool.letGo();
  };
}
