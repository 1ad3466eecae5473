import type { Redis } from "ioredis";
import type { ApprovalLedger } from "../index.js";
import { checkConnection, describeValue, isRedisClient } from "./check-options.js";
import { connected, redisClient, type RedisConnection } from "./connection.js";

/** Options of {@link RedisApprovalLedger}. */
export interface RedisApprovalLedgerOptions {
  /** Prepended to every key; default `"toolrx:approval:"`. */
  prefix?: string;
  /** How long a consumed key is remembered when `consume` is given none, in ms; default 30 days. */
  ttlMs?: number;
}

/**
 * The approval ledger in Redis, shared by every process of a conversation: an approved call runs
 * once even when two processes resume the same conversation at once (`SET NX PX`: atomic).
 *
 * `connection` is what the executor takes (a `redis://` URL or ioredis options), the ledger then
 * opening its own client and `close()` closing it; or an ioredis client of yours, which stays
 * yours to close. With Redis unreachable, `consume` rejects at once rather than waiting.
 *
 * @example
 * const ledger = new RedisApprovalLedger("redis://127.0.0.1:6379");
 * await ledger.consume("conv-7/call_1"); // true
 * await ledger.consume("conv-7/call_1"); // false
 * await ledger.close();
 */
export class RedisApprovalLedger implements ApprovalLedger {
  readonly #redis: Redis;
  /** Set when the client is ours: connected on first use, closed by `close()`. */
  #own: { ready: Promise<unknown> | undefined } | undefined;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(connection: Redis | RedisConnection, options: RedisApprovalLedgerOptions = {}) {
    if (!isRedisClient(connection)) checkConnection(connection);
    const { prefix = "toolrx:approval:", ttlMs = 30 * 86_400_000 } = options;
    if (typeof prefix !== "string") throw new TypeError(`Expected \`prefix\` to be a string, got ${describeValue(prefix)}`);
    checkTtl("ttlMs", ttlMs);
    if (isRedisClient(connection)) this.#redis = connection as Redis;
    else {
      this.#redis = redisClient(connection as RedisConnection, "failFast", "toolrx:approvals");
      this.#own = { ready: undefined };
    }
    this.#prefix = prefix;
    this.#ttlMs = ttlMs;
  }

  async consume(key: string, ttlMs: number = this.#ttlMs): Promise<boolean> {
    if (typeof key !== "string") throw new TypeError(`Expected \`key\` to be a string, got ${describeValue(key)}`);
    checkTtl("ttlMs", ttlMs);
    const own = this.#own;
    if (own !== undefined) {
      // Connected once, on first use. A failed connect is not kept: ioredis goes on reconnecting,
      // and meanwhile a command fails at once (the offline queue is off).
      if (own.ready === undefined && this.#redis.status === "wait") {
        own.ready = connected(this.#redis).catch((cause: unknown) => {
          own.ready = undefined;
          throw cause;
        });
      }
      await own.ready;
    }
    return (await this.#redis.set(this.#prefix + key, "1", "PX", Math.ceil(ttlMs), "NX")) === "OK";
  }

  /** Close the client the ledger opened; a client passed in is left open (it is yours). */
  async close(): Promise<void> {
    if (this.#own !== undefined) this.#redis.disconnect();
  }
}

function checkTtl(name: string, value: unknown): void {
  if (!(typeof value === "number" && Number.isFinite(value) && value > 0)) {
    throw new TypeError(`Expected \`${name}\` to be a positive finite number of milliseconds, got ${describeValue(value)}`);
  }
}
