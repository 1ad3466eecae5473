import { isThenable } from "../../tool/results.js";
import type { JournalEntry, JournalEnv } from "./journal.js";
import { JournalLeaseError } from "./journal-lease-error.js";

/**
 * The writing half of a run's journal (`RunJournal` reads): appends in order, holds the
 * conversation's lease (renewed every third of it), and keeps the first write that failed, so
 * that every later flush fails with it: a journal that could not keep up fails the run closed.
 * What need not be durable before anything starts (a call's outcome) is kept and appended with
 * what else settles in the same tick, in one append: a synchronous turn's outcomes go in one.
 */
export class JournalWriter {
  readonly #env: JournalEnv;
  readonly #owner: string;
  #tail: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #released = false;
  /** Entries kept for one append at the end of this tick, or at the next flush if that comes first. */
  #later: JournalEntry[] | undefined;
  /** Made once: a closure made in {@link later} costs its context on every call, not only on the tick's first. */
  readonly #writeLaterTask = (): void => this.#writeLater();

  constructor(env: JournalEnv, owner: string) {
    this.#env = env;
    this.#owner = owner;
  }

  /** Renew the lease every third of it, until {@link release}; the timer never keeps the process alive. */
  renewing(): void {
    this.#timer = setInterval(() => this.#renew(), Math.max(5, Math.floor(this.#env.leaseMs / 3)));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Append `entry` with the others kept this tick, once the tick's work is done (or at the next
   * flush): one append instead of one each. A process that stops first loses them, as it would
   * an append still on its way: only what a restart may do again waits to be durable.
   */
  later(entry: JournalEntry): void {
    if (this.#later !== undefined) {
      this.#later.push(entry);
      return;
    }
    this.#later = [entry];
    // A promise's job, not `queueMicrotask`: Node wraps each of those in an AsyncResource, which
    // cost more than the append it schedules. The task never throws (a failed append is kept).
    RESOLVED.then(this.#writeLaterTask);
  }

  /** Resolves once every record so far is durable; rejects with the first write that failed. */
  flush(): Promise<void> | undefined {
    this.#writeLater();
    if (this.#failure !== undefined) return Promise.reject(this.#failure.error);
    return this.#tail?.then(() => {
      if (this.#failure !== undefined) throw this.#failure.error;
    });
  }

  /** Stop renewing and let go of the lease, keeping the entries `retainMs`. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    clearInterval(this.#timer);
    // What this run kept for the end of the tick is written as it would have been: the lease is still held.
    this.#writeLater();
    await this.#tail?.catch(noop);
    await this.#env.store.release(this.#env.key, this.#owner, this.#env.retainMs);
  }

  /** Append in order: straight away when nothing is pending and the store answers synchronously. */
  write(entry: JournalEntry): Promise<void> | undefined {
    return this.#append([entry]);
  }

  /** The entries kept with {@link later}, in one append (a failure shows on the next flush). */
  #writeLater(): void {
    const later = this.#later;
    if (later === undefined) return;
    this.#later = undefined;
    this.#append(later)?.catch(noop);
  }

  #append(entries: readonly JournalEntry[]): Promise<void> | undefined {
    if (this.#tail !== undefined) return this.#queue(entries);
    let done: void | Promise<void>;
    try {
      done = this.#env.store.append(this.#env.key, this.#owner, entries);
    } catch (e) {
      this.#fail(e);
      return Promise.reject(e);
    }
    return isThenable(done) ? this.#awaiting(done) : undefined;
  }

  // The two asynchronous paths are methods of their own: their closures, written in `#append`,
  // would make V8 allocate their context on every append, a synchronous store's too.

  /** The store answered with a promise: later appends wait for it. */
  #awaiting(done: PromiseLike<unknown>): Promise<void> {
    const tail = Promise.resolve(done).then(
      () => {
        if (this.#tail === tail) this.#tail = undefined;
      },
      (e: unknown) => this.#fail(e),
    );
    this.#tail = tail;
    return tail.then(() => this.#check());
  }

  /** An append is on its way: this one goes after it, unless a write failed. */
  #queue(entries: readonly JournalEntry[]): Promise<void> {
    const { store, key } = this.#env;
    const tail: Promise<void> = (this.#tail as Promise<void>)
      .then(() => (this.#failure === undefined ? store.append(key, this.#owner, entries) : undefined), undefined)
      .then(
        () => {
          if (this.#tail === tail) this.#tail = undefined;
        },
        (e: unknown) => this.#fail(e),
      );
    this.#tail = tail;
    return tail.then(() => this.#check());
  }

  #check(): void {
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  #fail(error: unknown): void {
    this.#failure ??= { error };
  }

  #renew(): void {
    const { store, key, leaseMs } = this.#env;
    let held: boolean | Promise<boolean>;
    try {
      held = store.renew(key, this.#owner, leaseMs);
    } catch {
      return; // a store that is down now may be back by the next renewal; a lost lease shows on the next write
    }
    Promise.resolve(held).then((yes) => {
      if (!yes && !this.#released) this.#fail(new JournalLeaseError(key, undefined));
    }, noop);
  }
}

function noop(): void {}

const RESOLVED: Promise<void> = /* @__PURE__ */ Promise.resolve();
