import type { Redis } from "ioredis";
import { JournalLeaseError, type JournalEntry, type JournalStore } from "../index.js";
import { describeValue } from "./check-options.js";
import { connected, redisClient, type RedisConnection } from "./connection.js";

/** Options of {@link RedisJournalStore}. */
export interface RedisJournalStoreOptions {
  /** Prepended to every key; default `"toolrx:journal:"`. */
  readonly prefix?: string;
  /**
   * How long a journal is kept after its last write when no run ends it (its process died and
   * nobody resumed it), in ms; default 7 days. A run that ends keeps it `journal.retainMs`.
   */
  readonly ttlMs?: number;
}

// KEYS[1] the lease, KEYS[2] the entries. A lease held by someone else is refused with its holder.
const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return {0, holder} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {1, redis.call('LRANGE', KEYS[2], 0, -1)}`;
const APPEND = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.call('GET', KEYS[1]) or false end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`;
const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if ARGV[2] == '0' then redis.call('DEL', KEYS[2])
elseif ARGV[2] == 'keep' then redis.call('PERSIST', KEYS[2])
else redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 1`;

/**
 * The agent loop's journal in Redis (`journal: { store, conversationKey }` of `runAgent`): one
 * list of JSON entries per conversation and a lease key, each operation one Lua script, so a
 * process that lost its lease never writes. Give it the `connection` your `bullmqExecutor` uses
 * (it opens a client of its own; `close()` it), or an ioredis client you own.
 *
 * @example
 * const store = new RedisJournalStore("redis://127.0.0.1:6379");
 * await runAgent({ model, tools, messages, journal: { store, conversationKey: "conv-7" } });
 * await store.close();
 */
export class RedisJournalStore implements JournalStore {
  readonly #redis: Redis;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #ttlMs: number;
  #ready: Promise<Redis> | undefined;

  constructor(redis: Redis | RedisConnection, options: RedisJournalStoreOptions = {}) {
    const isClient = typeof (redis as Partial<Redis> | null)?.eval === "function";
    if (!isClient && typeof redis !== "string" && (typeof redis !== "object" || redis === null)) {
      throw new TypeError(`Expected \`redis\` to be an ioredis client, a redis:// URL or ioredis options, got ${describeValue(redis)}`);
    }
    const { prefix = "toolrx:journal:", ttlMs = 7 * 86_400_000 } = options;
    if (typeof prefix !== "string") throw new TypeError(`Expected \`prefix\` to be a string, got ${describeValue(prefix)}`);
    if (!(typeof ttlMs === "number" && Number.isInteger(ttlMs) && ttlMs > 0)) {
      throw new TypeError(`Expected \`ttlMs\` to be a positive integer of milliseconds, got ${describeValue(ttlMs)}`);
    }
    this.#owned = !isClient;
    this.#redis = isClient ? (redis as Redis) : redisClient(redis as RedisConnection, "failFast", "toolrx:journal");
    this.#prefix = prefix;
    this.#ttlMs = ttlMs;
  }

  async acquire(key: string, owner: string, leaseMs: number): Promise<readonly JournalEntry[]> {
    const redis = await this.#client();
    const [took, found] = (await redis.eval(ACQUIRE, 2, ...this.#keys(key), owner, String(Math.ceil(leaseMs)), String(this.#ttlMs))) as [
      number,
      string | string[],
    ];
    if (took !== 1) throw new JournalLeaseError(key, found as string);
    return (found as string[]).map((text) => JSON.parse(text) as JournalEntry);
  }

  async append(key: string, owner: string, entries: readonly JournalEntry[]): Promise<void> {
    const redis = await this.#client();
    const done = await redis.eval(APPEND, 2, ...this.#keys(key), owner, String(this.#ttlMs), ...entries.map((e) => JSON.stringify(e)));
    if (done !== 1) throw new JournalLeaseError(key, typeof done === "string" ? done : undefined);
  }

  async renew(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const redis = await this.#client();
    return (await redis.eval(RENEW, 2, ...this.#keys(key), owner, String(Math.ceil(leaseMs)))) === 1;
  }

  async release(key: string, owner: string, retainMs: number): Promise<void> {
    const redis = await this.#client();
    const retain = retainMs === Number.POSITIVE_INFINITY ? "keep" : String(Math.max(0, Math.ceil(retainMs)));
    await redis.eval(RELEASE, 2, ...this.#keys(key), owner, retain);
  }

  /** Every entry kept for `key`, for inspection and tests. */
  async entries(key: string): Promise<readonly JournalEntry[]> {
    const redis = await this.#client();
    return (await redis.lrange(this.#keys(key)[1], 0, -1)).map((text) => JSON.parse(text) as JournalEntry);
  }

  /** Forget `key` now, lease and entries (a conversation deleted by its user). */
  async delete(key: string): Promise<void> {
    const redis = await this.#client();
    await redis.del(...this.#keys(key));
  }

  /** Close the client this store opened (a client you gave it stays yours). */
  async close(): Promise<void> {
    if (this.#owned) await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #client(): Promise<Redis> {
    this.#ready ??= this.#owned ? connected(this.#redis) : Promise.resolve(this.#redis);
    return this.#ready;
  }

  #keys(key: string): [string, string] {
    return [`${this.#prefix}${key}:lease`, `${this.#prefix}${key}:entries`];
  }
}
