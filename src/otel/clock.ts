/**
 * The span clock: `performance.now()` readings, turned into epoch milliseconds for the SDK with
 * a time origin read once (Node's `performance.timeOrigin` getter is not free, and it never
 * changes). One reading serves a span's timestamp and its metric, so the two agree exactly.
 */
let origin: number | undefined;

/** `now` (a `performance.now()` reading) in epoch milliseconds, as span timestamps are. */
export function epochOf(now: number): number {
  origin ??= performance.timeOrigin;
  return origin + now;
}
