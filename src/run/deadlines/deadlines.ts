import type { SchedulerLike, Unsubscribable } from "rxjs";

const MAX_DELAY = 2_147_483_647;

/**
 * When a deadline of `span` ms from `start` falls: the one expression every deadline is set and
 * tested with (`now >= dueAt(start, span)`). Testing `now - start >= span` instead disagrees with
 * it at fractional times (`(123.456 + 1000) - 123.456 < 1000`): a deadline found not passed at
 * its own due time was re-added at that same time, and the heap spun on it forever.
 */
export function dueAt(start: number, span: number): number {
  return start + span;
}

/** Something that must be woken at `due` (scheduler time): a call's deadline or backoff end. */
export interface Timed {
  /** When to wake; set by {@link Deadlines.add}. */
  due: number;
  /** Position in the heap, -1 when not in it. */
  slot: number;
  wake(now: number): void;
}

/**
 * One pool's deadlines, in a min-heap by due time, with one scheduled action for the earliest.
 * A call that goes asynchronous costs a heap insert instead of an RxJS timer of its own (issue
 * 14 measured the per-call timer at a third of an async call's cost); the action stays on the
 * `SchedulerLike`, so virtual time works. Removing the head does not re-arm: the action wakes at
 * the old due time, finds nothing due, and re-arms for the new head. When the heap empties the
 * action is cancelled, so a finished batch leaves no timer behind.
 */
export class Deadlines {
  readonly #scheduler: SchedulerLike;
  readonly #heap: Timed[] = [];
  #action: Unsubscribable | undefined;
  #armedFor = Infinity;
  /** The due time the scheduled action stands for; `-Infinity` for an early wake (see #arm). */
  #wakeAt = -Infinity;
  #firing = false;
  /** The scheduler's time at this pool's first reading; see {@link Deadlines.now}. */
  #epoch = NaN;

  constructor(scheduler: SchedulerLike) {
    this.#scheduler = scheduler;
  }

  /**
   * Scheduler time since this pool's first reading. `Date.now()` is past 2^31, and V8 keeps each
   * such number stored in an object field in a heap-allocated box: one allocation per clock
   * field per call. Counted from an epoch, the default scheduler's readings are small integers,
   * stored in place. Only differences of readings are ever used, so nothing else changes.
   */
  now(): number {
    const now = this.#scheduler.now();
    if (Number.isNaN(this.#epoch)) this.#epoch = now;
    return now - this.#epoch;
  }

  /** Wake `timed` at `due`; it must not be in the heap already. */
  add(timed: Timed, due: number): void {
    timed.due = due;
    const heap = this.#heap;
    timed.slot = heap.length;
    heap.push(timed);
    this.#up(timed.slot);
    if (!this.#firing && due < this.#armedFor) this.#arm(due);
  }

  /** Forget `timed`; harmless when it is not in the heap. */
  remove(timed: Timed): void {
    const at = timed.slot;
    if (at < 0) return;
    timed.slot = -1;
    const heap = this.#heap;
    const last = heap.pop() as Timed;
    if (at < heap.length) {
      heap[at] = last;
      last.slot = at;
      this.#down(at);
      this.#up(last.slot);
    }
    if (heap.length === 0 && !this.#firing) this.#disarm();
  }

  /** Cancel the scheduled action and forget everything. */
  close(): void {
    for (const timed of this.#heap) timed.slot = -1;
    this.#heap.length = 0;
    this.#disarm();
  }

  fire(): void {
    // The scheduler ran the action meant for `wakeAt`, so that time has come, even where the
    // delay computed from an epoch-relative reading lands a hair short of it: otherwise the head
    // would be re-armed an ulp ahead, at a time a virtual clock can never move to.
    const now = Math.max(this.now(), this.#wakeAt);
    this.#action = undefined;
    this.#armedFor = Infinity;
    this.#wakeAt = -Infinity;
    this.#firing = true;
    const heap = this.#heap;
    try {
      while (heap.length > 0 && (heap[0] as Timed).due <= now) {
        const head = heap[0] as Timed;
        this.remove(head);
        head.wake(now);
      }
    } finally {
      // Re-armed even if a wake threw, so the other deadlines still fire.
      this.#firing = false;
      if (heap.length > 0) this.#arm((heap[0] as Timed).due);
    }
  }

  #arm(due: number): void {
    this.#action?.unsubscribe();
    this.#armedFor = due;
    const delay = Math.max(0, due - this.now());
    // Timers fire at once past 2^31 - 1 ms: wake early instead, find nothing due, re-arm.
    this.#wakeAt = delay > MAX_DELAY ? -Infinity : due;
    this.#action = this.#scheduler.schedule(onDue, Math.min(MAX_DELAY, delay), this);
  }

  #disarm(): void {
    this.#action?.unsubscribe();
    this.#action = undefined;
    this.#armedFor = Infinity;
    this.#wakeAt = -Infinity;
  }

  #up(at: number): void {
    const heap = this.#heap;
    const item = heap[at] as Timed;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = heap[parent] as Timed;
      if (above.due <= item.due) break;
      heap[at] = above;
      above.slot = at;
      at = parent;
    }
    heap[at] = item;
    item.slot = at;
  }

  #down(at: number): void {
    const heap = this.#heap;
    const item = heap[at] as Timed;
    const n = heap.length;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && (heap[child + 1] as Timed).due < (heap[child] as Timed).due) child++;
      const below = heap[child] as Timed;
      if (below.due >= item.due) break;
      heap[at] = below;
      below.slot = at;
      at = child;
    }
    heap[at] = item;
    item.slot = at;
  }
}

function onDue(this: unknown, deadlines: Deadlines | undefined): void {
  deadlines?.fire();
}
