/**
 * The value, or a test failure that says what was missing: the checked form of a non-null
 * assertion, for reading an element or a mock call that the test expects to be there.
 */
export function must<T>(value: T | null | undefined, what = "a value"): T {
  if (value === undefined || value === null) throw new Error(`Expected ${what}, got ${String(value)}`);
  return value;
}
