/** What the runner's property tests (test/run/property/) measure a run with: live timers, live listeners, and the records a harness keeps. */
import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from "rxjs";
import type { ToolCall, ToolEvent } from "../../../src/index.js";

// ---------------------------------------------------------------------------------------------
// Instruments: a scheduler that counts live timers, a signal that counts live listeners
// ---------------------------------------------------------------------------------------------

/**
 * `asyncScheduler`, counting the actions that are neither executed nor unsubscribed. (The runner
 * never reschedules an action from inside its work, so "executed" means "done".)
 */
export class CountingScheduler implements SchedulerLike {
  readonly #live = new Set<object>();
  scheduled = 0;
  fired = 0;

  get live(): number {
    return this.#live.size;
  }

  now(): number {
    return asyncScheduler.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    const token = {};
    const live = this.#live;
    const onFire = () => {
      live.delete(token);
      this.fired++;
    };
    this.scheduled++;
    live.add(token);
    const subscription = asyncScheduler.schedule(
      function (this: SchedulerAction<T>, s?: T) {
        onFire();
        work.call(this, s);
      },
      delay,
      state,
    );
    subscription.add(() => live.delete(token));
    return subscription;
  }
}

export interface ListenerEntry {
  readonly type: string;
  readonly listener: EventListenerOrEventListenerObject;
  readonly capture: boolean;
  readonly once: boolean;
}

/** Wraps a signal's add/removeEventListener to count the listeners others leave on it. */
export class ListenerCount {
  readonly #entries: ListenerEntry[] = [];
  added = 0;

  constructor(signal: AbortSignal) {
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    // Registered first and not counted: `once` listeners are gone after the abort event.
    add("abort", () => {
      for (let i = this.#entries.length - 1; i >= 0; i--) {
        const entry = this.#entries[i];
        if (entry?.once && entry.type === "abort") this.#entries.splice(i, 1);
      }
    });
    const capture = (options: boolean | EventListenerOptions | undefined) => (typeof options === "boolean" ? options : options?.capture === true);
    const find = (type: string, listener: EventListenerOrEventListenerObject, c: boolean) =>
      this.#entries.findIndex((e) => e.type === type && e.listener === listener && e.capture === c);
    Object.defineProperty(signal, "addEventListener", {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
        if (listener !== null && find(type, listener, capture(options)) === -1) {
          this.added++;
          this.#entries.push({ type, listener, capture: capture(options), once: typeof options === "object" && options.once === true });
        }
        if (listener !== null) add(type, listener, options);
      },
    });
    Object.defineProperty(signal, "removeEventListener", {
      configurable: true,
      value: (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
        if (listener === null) return;
        const at = find(type, listener, capture(options));
        if (at !== -1) this.#entries.splice(at, 1);
        remove(type, listener, options);
      },
    });
  }

  get live(): number {
    return this.#entries.length;
  }
}

/** One invocation of a handler, on the harness clock. */
export interface HandlerRecord {
  readonly startedAt: number;
  settledAt: number | undefined;
  abortedAt: number | undefined;
  readonly signal: AbortSignal;
  /** What the handler returned (sync) or resolved with (async). */
  returned: unknown;
}

export interface PolicyCall {
  readonly call: ToolCall;
  readonly error: unknown;
}

export interface Stamped {
  readonly event: ToolEvent;
  readonly at: number;
}
