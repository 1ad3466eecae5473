import type { Redis } from "ioredis";
import type { ApprovalLedger } from "../index.js";
import { describeValue } from "./check-options.js";

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
 * @example
 * const ledger = new RedisApprovalLedger(redis);
 * await ledger.consume("conv-7/call_1"); // true
 * await ledger.consume("conv-7/call_1"); // false
 */
export class RedisApprovalLedger implements ApprovalLedger {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(redis: Redis, options: RedisApprovalLedgerOptions = {}) {
    if (typeof redis?.set !== "function") throw new TypeError(`Expected \`redis\` to be an ioredis client, got ${describeValue(redis)}`);
    const { prefix = "toolrx:approval:", ttlMs = 30 * 86_400_000 } = options;
    if (typeof prefix !== "string") throw new TypeError(`Expected \`prefix\` to be a string, got ${describeValue(prefix)}`);
    checkTtl("ttlMs", ttlMs);
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlMs = ttlMs;
  }

  async consume(key: string, ttlMs: number = this.#ttlMs): Promise<boolean> {
    if (typeof key !== "string") throw new TypeError(`Expected \`key\` to be a string, got ${describeValue(key)}`);
    checkTtl("ttlMs", ttlMs);
    return (await this.#redis.set(this.#prefix + key, "1", "PX", Math.ceil(ttlMs), "NX")) === "OK";
  }
}

function checkTtl(name: string, value: unknown): void {
  if (!(typeof value === "number" && Number.isFinite(value) && value > 0)) {
    throw new TypeError(`Expected \`${name}\` to be a positive finite number of milliseconds, got ${describeValue(value)}`);
  }
}
