import { Redis, type RedisOptions } from "ioredis";

/** Where Redis is: a `redis://` URL, or ioredis options. */
export type RedisConnection = string | RedisOptions;

/**
 * A client of our own for `connection`. `failFast` turns the offline queue off, so that with
 * Redis unreachable a command fails at once instead of waiting for a reconnect that may never
 * come (BullMQ's `add` otherwise hangs); blocking readers must wait instead (`maxRetriesPerRequest: null`).
 * Once `stopped()` is true, a connection that drops is not re-established.
 */
export function redisClient(connection: RedisConnection, kind: "failFast" | "blocking", name: string, stopped: () => boolean = never): Redis {
  const extra: RedisOptions =
    kind === "failFast"
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, connectionName: name }
      : { maxRetriesPerRequest: null, lazyConnect: true, connectionName: name };
  // A reconnect every 250 ms to 2 s: Redis back from a restart is used within seconds.
  const retry = (typeof connection === "string" ? undefined : connection.retryStrategy) ?? ((times: number) => Math.min(250 * times, 2_000));
  // Once `stopped`, a lost connection ends instead of retrying, and so do the copies BullMQ makes
  // with `duplicate()` (they share these options): its commands fail, nothing waits for Redis.
  const retryStrategy = (times: number): number | null => (stopped() ? null : (retry(times) ?? null));
  const client = typeof connection === "string" ? new Redis(connection, { retryStrategy, ...extra }) : new Redis({ ...connection, retryStrategy, ...extra });
  // Connection errors are handled where they matter (calls answer `handler_exit`); without a
  // listener ioredis would print each reconnect attempt's error.
  client.on("error", () => undefined);
  return client;
}

const never = (): boolean => false;

/** Connect a lazy client and wait until it is ready (commands fail fast afterwards). */
export async function connected(client: Redis): Promise<Redis> {
  if (client.status === "wait") await client.connect();
  else if (client.status !== "ready")
    await new Promise<void>((resolve, reject) => {
      client.once("ready", resolve);
      client.once("end", () => reject(new Error("Redis connection ended before it was ready")));
    });
  return client;
}

/** The key prefix BullMQ uses unless told otherwise. */
export const DEFAULT_PREFIX = "bull";
