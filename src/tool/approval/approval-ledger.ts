import { describe } from "../tool-error.js";

/**
 * Where approvals are spent, so that a replayed request (the same conversation, the same
 * approval, sent again) never runs an approved call twice. `consume` answers `true` the first
 * time it sees a key and `false` ever after (until `ttlMs`, when given, has passed). Share one
 * ledger between every process that may receive the same conversation (a Redis one, say).
 */
export interface ApprovalLedger {
  consume(key: string, ttlMs?: number): Promise<boolean>;
}

/** Options of {@link memoryApprovalLedger}. */
export interface MemoryApprovalLedgerOptions {
  /** Milliseconds a spent key is remembered when `consume` gives no TTL. Default `Infinity`. */
  readonly ttlMs?: number;
  /** The clock; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * An {@link ApprovalLedger} in this process's memory: enough for one server process, and for
 * tests. Spent keys past their TTL are dropped as new keys come in.
 *
 * @example
 * const ledger = memoryApprovalLedger();
 * await ledger.consume("k"); // true
 * await ledger.consume("k"); // false
 */
export function memoryApprovalLedger(options: MemoryApprovalLedgerOptions = {}): ApprovalLedger {
  const { ttlMs: defaultTtl = Infinity, now = Date.now } = options;
  if (!(typeof defaultTtl === "number" && defaultTtl > 0)) throw new TypeError(`Expected \`ttlMs\` to be a positive number, got ${describe(defaultTtl)}`);
  if (typeof now !== "function") throw new TypeError(`Expected \`now\` to be a function, got ${describe(now)}`);
  const spent = new Map<string, number>();
  return {
    consume(key: string, ttlMs?: number): Promise<boolean> {
      const at = now();
      for (const [k, until] of spent) {
        if (until > at) break; // kept in expiry order when every TTL is the same; a later one only waits longer
        spent.delete(k);
      }
      // A key never spent reads as expired long ago.
      if ((spent.get(key) ?? Number.NEGATIVE_INFINITY) > at) return Promise.resolve(false);
      spent.delete(key);
      spent.set(key, at + (ttlMs ?? defaultTtl));
      return Promise.resolve(true);
    },
  };
}

/** Throws a TypeError naming `approvalLedger` unless it has a `consume` function. */
export function assertApprovalLedger(ledger: unknown): asserts ledger is ApprovalLedger | undefined {
  if (ledger === undefined || typeof (ledger as { consume?: unknown } | null)?.consume === "function") return;
  throw new TypeError(`Expected \`approvalLedger\` to be an object with a \`consume(key, ttlMs?)\` method, got ${describe(ledger)}`);
}
