import type { Unsubscribable } from "rxjs";
import { cancelById, type CancelScope } from "./pool-cancel.js";

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
 * running as if it could.
 */
export function openPool(pool: OpenScope): () => void {
  const { signal, cancel } = pool.env;
  const onAbort = () => pool.fail(signal?.reason);
  let cancels: Unsubscribable | undefined;
  if (signal?.aborted) {
    pool.fail(signal.reason);
  } else {
    signal?.addEventListener("abort", onAbort);
    if (cancel !== undefined) {
      cancels = cancel.subscribe({ next: (request) => cancelById(pool, request), error: (e: unknown) => pool.fail(e) });
    }
    pool.drain();
  }
  return () => {
    signal?.removeEventListener("abort", onAbort);
    cancels?.unsubscribe();
    pool.letGo();
  };
}
