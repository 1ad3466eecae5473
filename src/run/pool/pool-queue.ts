import type { CheckedCall } from "../checks/index.js";

/** Compact a streamed queue once this many started calls sit before its head. */
const COMPACT_AT = 1_024;

/**
 * The pool's queue: calls not started yet from `head` on, `base` the input index of `queue[0]`.
 * Functions of the pool, which holds this state (internal fields, shared with this file only).
 */
export interface PoolQueue {
  queue: readonly CheckedCall[];
  head: number;
  base: number;
}

/** Everything queued has started: let go of the calls, so that a long run does not hold them. */
export function releaseStarted(pool: PoolQueue): void {
  if (pool.head === 0) return;
  pool.base += pool.head;
  pool.queue = [];
  pool.head = 0;
}

/** A standing backlog never empties a streamed queue: drop the started calls in front of it once they pile up. */
export function compactBacklog(pool: PoolQueue): void {
  if (pool.head < COMPACT_AT || pool.head * 2 < pool.queue.length) return;
  pool.base += pool.head;
  pool.queue = pool.queue.slice(pool.head);
  pool.head = 0;
}
