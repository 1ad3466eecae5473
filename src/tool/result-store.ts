import { describe } from "../util/safe.js";

/**
 * Where {@link resultPages} keeps results too long for the model to read at once. Any key-value
 * store with a retention fits (Redis with a TTL, a database table); both methods may be async.
 */
export interface ResultStore {
  put(handle: string, text: string): void | PromiseLike<void>;
  /** The text, or `undefined` once it has expired or was never kept. */
  get(handle: string): string | undefined | PromiseLike<string | undefined>;
}

/**
 * A {@link ResultStore} in memory: the `maxEntries` latest results, the oldest dropped first.
 * Enough for one process; a durable agent across processes wants a shared store.
 *
 * @throws {TypeError} when `maxEntries` is not a positive integer.
 */
export function memoryResultStore(options: { readonly maxEntries?: number } = {}): ResultStore {
  const { maxEntries = 100 } = options;
  if (!(Number.isInteger(maxEntries) && maxEntries > 0)) throw new TypeError(`Expected \`maxEntries\` to be a positive integer, got ${describe(maxEntries)}`);
  const entries = new Map<string, string>();
  return {
    put(handle, text) {
      entries.delete(handle);
      entries.set(handle, text);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    get: (handle) => entries.get(handle),
  };
}
