import { describe } from "./tool-error.js";
import { assertKnownKeys, knownKeys } from "../util/known-keys.js";

/** The `ToolError` reasons a retry may be for; the others say retrying cannot help. */
export type RetryableReason = "timeout" | "handler_raised" | "handler_exit";

/**
 * How a call is tried again. Only a tool declared `idempotent` is retried, unless the policy
 * says `nonIdempotent: true`: running a non-idempotent tool twice (a payment, an email) is a
 * decision for its author, not a default.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included: a positive integer. */
  attempts: number;
  /** Backoff before the second attempt, in ms; default 200. */
  delay?: number;
  /** Each further backoff is `factor` times the last; default 2. */
  factor?: number;
  /** Cap on one backoff, in ms; default 5_000. */
  maxDelay?: number;
  /** Full jitter: each backoff is uniform in [0, backoff), so retries of many calls spread out. Default true. */
  jitter?: boolean;
  /**
   * Where the jitter comes from: a function returning a number in [0, 1), as `Math.random` does
   * (the default). Pass a seeded generator to make backoffs reproducible in tests. A value
   * outside [0, 1) is clamped into it; a throw is reported as an unhandled error (see
   * `config.onUnhandledError` in RxJS) and that backoff gets no jitter.
   */
  random?: () => number;
  /**
   * What to retry: `ToolError` reasons (default all three), or a predicate of the error term and
   * the attempt that failed. `invalid_return`, `encoding_failed`, `not_found` and invalid
   * arguments are never retried, whatever the predicate says.
   */
  retryOn?: readonly RetryableReason[] | ((error: unknown, attempt: number) => boolean);
  /**
   * Bound on the whole call, backoffs included, from its first attempt's start. Default
   * `attempts × toolTimeout + (attempts − 1) × maxDelay`: room for every attempt and backoff.
   */
  totalTimeout?: number;
  /** Retry even a tool not declared `idempotent`. Default false. */
  nonIdempotent?: boolean;
}

/** A {@link RetryPolicy} checked, defaults filled in. */
export interface RetryPlan {
  readonly attempts: number;
  readonly delay: number;
  readonly factor: number;
  readonly maxDelay: number;
  readonly jitter: boolean;
  readonly random: () => number;
  readonly retryOn: ReadonlySet<string> | ((error: unknown, attempt: number) => boolean);
  readonly totalTimeout: number | undefined;
  readonly nonIdempotent: boolean;
}

/** Every key of {@link RetryPolicy}; the compiler fails here when one is added to the interface alone. */
const POLICY_KEYS = /* @__PURE__ */ knownKeys({
  attempts: true,
  delay: true,
  factor: true,
  maxDelay: true,
  jitter: true,
  random: true,
  retryOn: true,
  totalTimeout: true,
  nonIdempotent: true,
} satisfies Record<keyof RetryPolicy, true>);

const RETRYABLE: readonly RetryableReason[] = ["timeout", "handler_raised", "handler_exit"];
const DEFAULT_RETRY_ON: ReadonlySet<string> = /* @__PURE__ */ new Set(RETRYABLE);

/**
 * Check a retry policy where it is given: `where` is its option path, `owner` says whose it is.
 *
 * @throws {TypeError} naming the field and what it got.
 */
export function checkRetryPolicy(policy: unknown, where: string, owner = ""): RetryPlan {
  if (typeof policy !== "object" || policy === null || Array.isArray(policy)) {
    throw new TypeError(`Expected \`${where}\`${owner} to be a retry policy object, got ${describe(policy)}`);
  }
  assertKnownKeys(policy, POLICY_KEYS, { noun: "key", where: ` in \`${where}\`${owner}` });
  const p = policy as RetryPolicy;
  const { attempts, delay = 200, factor = 2, maxDelay = 5_000, jitter = true, random = Math.random, retryOn, totalTimeout, nonIdempotent = false } = p;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new TypeError(`Expected \`${where}.attempts\`${owner} to be a positive integer, got ${describe(attempts)}`);
  }
  for (const [name, value, min] of [
    ["delay", delay, 0],
    ["factor", factor, 1],
    ["maxDelay", maxDelay, 0],
  ] as const) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
      throw new TypeError(`Expected \`${where}.${name}\`${owner} to be a finite number of at least ${min}, got ${describe(value)}`);
    }
  }
  if (typeof jitter !== "boolean") throw new TypeError(`Expected \`${where}.jitter\`${owner} to be a boolean, got ${describe(jitter)}`);
  if (typeof random !== "function") {
    throw new TypeError(`Expected \`${where}.random\`${owner} to be a function () => number in [0, 1), got ${describe(random)}`);
  }
  if (typeof nonIdempotent !== "boolean") {
    throw new TypeError(`Expected \`${where}.nonIdempotent\`${owner} to be a boolean, got ${describe(nonIdempotent)}`);
  }
  if (totalTimeout !== undefined && !(typeof totalTimeout === "number" && totalTimeout > 0)) {
    throw new TypeError(`Expected \`${where}.totalTimeout\`${owner} to be a positive number of milliseconds, got ${describe(totalTimeout)}`);
  }
  let on: RetryPlan["retryOn"] = DEFAULT_RETRY_ON;
  if (typeof retryOn === "function") on = retryOn;
  else if (retryOn !== undefined) {
    if (!Array.isArray(retryOn) || retryOn.some((r) => !RETRYABLE.includes(r as RetryableReason))) {
      throw new TypeError(
        `Expected \`${where}.retryOn\`${owner} to be a predicate or an array of ${RETRYABLE.map((r) => `"${r}"`).join(", ")}, got ${describe(retryOn)}`,
      );
    }
    on = new Set(retryOn);
  }
  return { attempts, delay, factor, maxDelay, jitter, random, retryOn: on, totalTimeout, nonIdempotent };
}
