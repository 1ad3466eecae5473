import type { JournalEntry, JournalStore } from "./journal.js";
import { JournalLeaseError } from "./journal-lease-error.js";

/** Options of {@link MemoryJournalStore}. */
export interface MemoryJournalStoreOptions {
  /** The clock leases and retention are read on, in ms; default `Date.now` (give a virtual one in tests). */
  readonly now?: () => number;
}

interface Held {
  entries: JournalEntry[];
  owner: string | undefined;
  /** -Infinity while nobody holds the key, so any clock finds it free. */
  leaseUntil: number;
  /** When the entries go, once released; Infinity while a run holds them. */
  expiresAt: number;
}

/**
 * A {@link JournalStore} in this process's memory: it answers synchronously, so the loop never
 * waits on it. It survives a run, not the process: for tests, and for a host that restarts runs
 * (not processes) and wants the semantics. Entries are kept as given (not copied): do not change
 * them.
 *
 * @example
 * const store = new MemoryJournalStore();
 * await runAgent({ model, tools, messages, journal: { store, conversationKey: "conv-7" } });
 */
export class MemoryJournalStore implements JournalStore {
  readonly #now: () => number;
  readonly #keys = new Map<string, Held>();
  /**
   * The key appended to last and what it holds: a run appends to one key over and over, and its
   * lookup was most of an append's cost. Dropped whenever the map lets go of a key.
   */
  #lastKey: string | undefined;
  #lastHeld: Held | undefined;

  constructor(options: MemoryJournalStoreOptions = {}) {
    const { now = Date.now } = options;
    if (typeof now !== "function") throw new TypeError("Expected `now` to be a function () => number of milliseconds");
    this.#now = now;
  }

  acquire(key: string, owner: string, leaseMs: number): readonly JournalEntry[] {
    const now = this.#now();
    let held = this.#live(key, now);
    if (held === undefined) {
      held = { entries: [], owner: undefined, leaseUntil: -Infinity, expiresAt: Infinity };
      this.#keys.set(key, held);
      if (key === this.#lastKey) this.#lastHeld = held;
    }
    if (held.owner !== owner && held.leaseUntil > now) throw new JournalLeaseError(key, held.owner);
    held.owner = owner;
    held.leaseUntil = now + leaseMs;
    held.expiresAt = Infinity;
    return held.entries.slice();
  }

  append(key: string, owner: string, entries: readonly JournalEntry[]): void {
    const held = this.#holding(key, owner);
    for (const entry of entries) held.entries.push(entry);
  }

  renew(key: string, owner: string, leaseMs: number): boolean {
    const now = this.#now();
    const held = this.#live(key, now);
    if (held?.owner !== owner) return false;
    held.leaseUntil = now + leaseMs;
    return true;
  }

  release(key: string, owner: string, retainMs: number): void {
    const now = this.#now();
    const held = this.#live(key, now);
    if (held?.owner !== owner) return;
    held.owner = undefined;
    held.leaseUntil = -Infinity;
    if (retainMs <= 0) this.#forget(key);
    else held.expiresAt = now + retainMs;
  }

  /** The entries kept for `key` (a copy), for tests and inspection. */
  entries(key: string): readonly JournalEntry[] {
    return this.#live(key, this.#now())?.entries.slice() ?? [];
  }

  /** Forget `key` now, lease and entries. */
  delete(key: string): void {
    this.#forget(key);
  }

  #forget(key: string): void {
    this.#keys.delete(key);
    if (key === this.#lastKey) this.#lastHeld = undefined;
  }

  #holding(key: string, owner: string): Held {
    // A held key never expires (its `expiresAt` is set only on release, which clears its owner):
    // its owner's appends need no clock. Past its lease, an owner still writes until someone else
    // takes the key: nothing can have diverged.
    let held = this.#lastHeld;
    if (key !== this.#lastKey) {
      held = this.#keys.get(key);
      this.#lastKey = key;
      this.#lastHeld = held;
    }
    if (held === undefined || held.owner !== owner) throw new JournalLeaseError(key, held?.owner);
    return held;
  }

  #live(key: string, now: number): Held | undefined {
    const held = this.#keys.get(key);
    if (held !== undefined && held.expiresAt <= now) {
      this.#forget(key);
      return undefined;
    }
    return held;
  }
}
