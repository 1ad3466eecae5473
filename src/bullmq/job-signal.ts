/**
 * The signal a worker runs one job's call under, and a producer's waiter for one call stops its
 * lease wait with: what the runner and `sleep` read of an `AbortSignal` (`aborted`, `reason`,
 * `throwIfAborted`, its `abort` listeners), without one. Node builds an `AbortSignal`, an
 * `EventTarget`, the first time a controller's `signal` is read: a job paid about 5 µs for it
 * (a tenth of the worker's CPU beyond bare BullMQ's), though the runner only listens to it. The
 * handler's own `ctx.signal` is still a real one, the runner's, which aborting this aborts.
 */
export class JobSignal {
  /** Whether {@link abort} was called. */
  aborted = false;
  /** What {@link abort} was given. */
  reason: unknown = undefined;
  /** The first listener; the runner adds just one, so a job makes no `Set` unless something adds more. */
  #listener: (() => void) | undefined;
  #more: Set<() => void> | undefined;

  /** Call `listener` once, when this aborts; nothing when it already has (as `AbortSignal`, a listener added twice is called once; `once` is how every listener here is called). */
  addEventListener(type: "abort", listener: () => void, _options?: { once?: boolean }): void {
    if (type !== "abort" || this.aborted || listener === this.#listener) return;
    if (this.#listener === undefined && this.#more === undefined) this.#listener = listener;
    else {
      this.#more ??= new Set();
      this.#more.add(listener);
    }
  }

  removeEventListener(type: "abort", listener: () => void): void {
    if (type !== "abort") return;
    if (listener === this.#listener) this.#listener = undefined;
    else this.#more?.delete(listener);
  }

  /** Throw the reason once aborted, as `AbortSignal.throwIfAborted`. */
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Abort once, with `reason`; later calls keep the first. A listener's throw is reported as `EventTarget` does, on its own task. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listener === undefined ? [] : [this.#listener];
    if (this.#more !== undefined) listeners.push(...this.#more);
    this.#listener = undefined;
    this.#more = undefined;
    for (const listener of listeners) {
      try {
        listener();
      } catch (thrown) {
        queueMicrotask(() => {
          throw thrown;
        });
      }
    }
  }

  /** This, typed as what the runner's `signal` option takes: it reads only what this has. */
  asAbortSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
