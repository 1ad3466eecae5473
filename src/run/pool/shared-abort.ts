/** What a {@link SharedAbort} fails when its signal aborts: an open pool. */
export interface Failing {
  fail(reason: unknown): void;
}

/**
 * One `abort` listener on a long-lived signal for the many pools opened under it one after
 * another: the agent loop's turns, each a pool under the run's own signal. Adding and removing
 * a listener on an `AbortSignal` costs a turn more than the rest of its pool's opening and
 * closing together (issue 46's profile of `runAgent`: 2.4% of its samples); a pool joins and
 * leaves a set here instead. The listener is added with the first pool and stays until
 * {@link close} (the run's end), firing each pool still open with the signal's reason, as its own
 * listener would.
 */
export class SharedAbort {
  readonly signal: AbortSignal;
  readonly #open = new Set<Failing>();
  #listening = false;
  readonly #onAbort = (): void => this.#abort();

  constructor(signal: AbortSignal) {
    this.signal = signal;
  }

  add(pool: Failing): void {
    this.#open.add(pool);
    if (this.#listening) return;
    this.#listening = true;
    this.signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** No pool will open under the signal any more: let go of its listener. */
  close(): void {
    if (!this.#listening) return;
    this.#listening = false;
    this.signal.removeEventListener("abort", this.#onAbort);
  }

  delete(pool: Failing): void {
    this.#open.delete(pool);
  }

  #abort(): void {
    // Taken out first: a failing pool's teardown leaves the set while this goes through it.
    const open = [...this.#open];
    this.#open.clear();
    for (const pool of open) pool.fail(this.signal.reason);
  }
}
