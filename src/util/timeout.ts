/** The longest delay timers accept (2^31 - 1 ms); longer ones fire at once. */
export const MAX_TIMEOUT = 2_147_483_647;

/**
 * Whether `value` can be a deadline in milliseconds: `Infinity` (none), or a positive number a
 * timer can wait for. One rule for the run's `toolTimeout` and a tool's own `control.timeout`.
 */
export function isTimeout(value: unknown): value is number {
  return value === Infinity || (typeof value === "number" && value > 0 && value <= MAX_TIMEOUT);
}

/** What a deadline option must be, said as a `TypeError` message does after "Expected `x` ...". */
export const TIMEOUT_RULE = `to be Infinity or a positive number of milliseconds up to ${MAX_TIMEOUT}`;
