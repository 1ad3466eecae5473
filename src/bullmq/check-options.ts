/** Describe a value for a `TypeError` message, briefly. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** A positive number of milliseconds (or `Infinity` when allowed), else a `TypeError` naming `name`. */
export function checkMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && value > 0 && (Number.isFinite(value) || value === Infinity)) return value;
  throw new TypeError(`Expected \`${name}\` to be a positive number of milliseconds, got ${describeValue(value)}`);
}

/** A positive integer, else a `TypeError` naming `name`. */
export function checkCount(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && (value as number) > 0) return value as number;
  throw new TypeError(`Expected \`${name}\` to be a positive integer, got ${describeValue(value)}`);
}

/** A BullMQ queue name: non-empty, no `:` (BullMQ builds its Redis keys with it). */
export function checkQueueName(value: unknown): string {
  if (typeof value === "string" && value !== "" && !value.includes(":")) return value;
  throw new TypeError(`Expected \`queue\` to be a non-empty queue name without ":", got ${describeValue(value)}`);
}

/**
 * Where Redis is, as the executor and worker take it: a non-empty URL string or an ioredis
 * options object. Anything else would let ioredis fall back to 127.0.0.1:6379 without a word.
 */
export function checkConnection(value: unknown): void {
  if (typeof value === "string" && value !== "") return;
  if (typeof value === "object" && value !== null && !Array.isArray(value) && !isRedisClient(value)) return;
  const client = isRedisClient(value) ? " (a client: pass its URL or options, each side opens the connections it needs)" : "";
  throw new TypeError(`Expected \`connection\` to be a redis:// URL or ioredis options, got ${describeValue(value)}${client}`);
}

/** An ioredis client (or a look-alike): it sends commands, which options never do. */
export function isRedisClient(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { sendCommand?: unknown }).sendCommand === "function";
}
