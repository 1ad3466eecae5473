/**
 * When a call was queued, for its queue wait (`performance.now()` readings): a batch's calls all
 * at subscribe; a streamed call when it arrived (its index is its arrival order); a call of the
 * agent loop when the model emitted it (by id: the loop's runner numbers calls per turn).
 */
export interface QueueClock {
  /** When the call was queued; forgets it, since each call starts once. */
  queuedAt(index: number, toolCallId: string, now: number): number;
}

/** Every call queued at the same moment: a batch, at subscribe. */
export function queuedAtOnce(at: number): QueueClock {
  return { queuedAt: () => at };
}

/** Calls queued as they arrive, keyed by arrival index or by id. */
export class Arrivals<K extends number | string> implements QueueClock {
  readonly #at = new Map<K, number>();
  readonly #byId: boolean;
  #count = 0;

  constructor(byId: K extends string ? true : false) {
    this.#byId = byId;
  }

  /** A call arrived: by id when keyed by id, else the next arrival index. */
  arrived(toolCallId?: string): void {
    this.#at.set((this.#byId ? toolCallId : this.#count++) as K, performance.now());
  }

  queuedAt(index: number, toolCallId: string, now: number): number {
    const key = (this.#byId ? toolCallId : index) as K;
    const at = this.#at.get(key);
    if (at === undefined) return now;
    this.#at.delete(key);
    return at;
  }
}
