import { isObservable, type Observable, type Subscription } from "rxjs";
import { describe } from "./safe.js";

/**
 * An Observable as an async iterable, for `for await`: RxJS 7.8 has no such conversion.
 *
 * Each iteration subscribes afresh, on its first `next()`, so the Observable stays cold.
 * Values are buffered without backpressure: the run goes on at its own pace and the loop reads
 * what has arrived, in order. An error is thrown from the loop after the values before it.
 * Leaving the loop early (`break`, `return`, a throw) unsubscribes, which for
 * {@link streamToolCalls} aborts every running handler and starts nothing new.
 *
 * @param source - any Observable, e.g. {@link streamToolCalls}'s events
 * @returns an async iterable over `source`'s values
 * @throws TypeError when `source` is not an Observable
 *
 * @example
 * for await (const event of toAsyncIterable(streamToolCalls(calls, tools))) {
 *   console.log(event.index, event.type);
 * }
 * // 0 tool_execution_started
 * // 0 tool_execution_completed
 * // 0 tool_result_encoded
 */
export function toAsyncIterable<T>(source: Observable<T>): AsyncIterable<T> {
  if (!isObservable(source)) {
    throw new TypeError(`Expected \`source\` to be an Observable, got ${describe(source)}`);
  }
  return { [Symbol.asyncIterator]: () => new ObservableIterator(source) };
}

type Waiter<T> = { resolve: (result: IteratorResult<T, undefined>) => void; reject: (error: unknown) => void };
const DONE: IteratorReturnResult<undefined> = /* @__PURE__ */ Object.freeze({ done: true, value: undefined });

class ObservableIterator<T> implements AsyncIterator<T, undefined> {
  /** Values not read yet; `head` avoids `shift()` copying a long buffer. */
  private buffer: T[] = [];
  private head = 0;
  /** `next()` calls made before their value arrived, oldest first. */
  private waiters: Waiter<T>[] = [];
  private subscription: Subscription | undefined;
  private state: "idle" | "running" | "completed" | "errored" | "closed" = "idle";
  private failure: unknown;

  constructor(private readonly source: Observable<T>) {}

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.state === "idle") this.start();
    if (this.head < this.buffer.length) return Promise.resolve({ done: false, value: this.take() });
    if (this.state === "running") return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (this.state === "errored") {
      // The error is thrown once; the iterator is finished after it, as a generator's would be.
      this.state = "closed";
      return Promise.reject(this.failure);
    }
    return Promise.resolve(DONE);
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.close();
    return Promise.resolve(DONE);
  }

  private start(): void {
    this.state = "running";
    this.subscription = this.source.subscribe({
      next: (value) => {
        const waiter = this.waiters.shift();
        if (waiter !== undefined) waiter.resolve({ done: false, value });
        else this.buffer.push(value);
      },
      error: (error: unknown) => {
        this.state = "errored";
        this.failure = error;
        this.settleWaiters();
      },
      complete: () => {
        this.state = "completed";
        this.settleWaiters();
      },
    });
    // A source that finished synchronously left nothing to unsubscribe from.
    if (this.state !== "running") this.subscription = undefined;
  }

  private take(): T {
    const value = this.buffer[this.head] as T;
    this.buffer[this.head++] = undefined as T;
    if (this.head === this.buffer.length) {
      this.buffer = [];
      this.head = 0;
    }
    return value;
  }

  /** Waiters exist only while the buffer is empty, so the end is all that is left for them. */
  private settleWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      if (this.state === "errored") {
        this.state = "closed";
        waiter.reject(this.failure);
      } else {
        waiter.resolve(DONE);
      }
    }
  }

  /** Stops the source and drops what it buffered, so an abandoned loop holds nothing. */
  private close(): void {
    const subscription = this.subscription;
    this.subscription = undefined;
    this.state = "closed";
    this.buffer = [];
    this.head = 0;
    this.failure = undefined;
    subscription?.unsubscribe();
    this.settleWaiters();
  }
}
