import { isToolError } from "../../tool/tool-error.js";
import type { RetryPlan } from "../../tool/retry-policy.js";
import type { ToolErrorReason } from "../../tool/tool-error.js";
import { reportUnhandled } from "../../util/report-unhandled.js";

/** Reasons retrying cannot help, whatever the policy says. */
const NEVER: ReadonlySet<string> = new Set<ToolErrorReason>(["invalid_return", "encoding_failed", "not_found"]);

/** Whether the error term of failed attempt `attempt` may be retried under `plan`. */
export function isRetryable(plan: RetryPlan, term: unknown, attempt: number): boolean {
  if (isToolError(term)) {
    if (NEVER.has(term.reason)) return false;
    if (typeof plan.retryOn !== "function") return plan.retryOn.has(term.reason);
  } else if (typeof plan.retryOn !== "function" || (term instanceof Error && term.name === "InvalidArgumentsError")) {
    return false;
  }
  try {
    return plan.retryOn(term, attempt) === true;
  } catch {
    // A predicate that throws cannot vouch for a retry.
    return false;
  }
}

/** The backoff after failed attempt `attempt` (from 1): exponential, capped, with full jitter from `plan.random`. */
export function backoff(plan: RetryPlan, attempt: number): number {
  const ceiling = Math.min(plan.maxDelay, plan.delay * plan.factor ** (attempt - 1));
  return plan.jitter ? unit(plan.random) * ceiling : ceiling;
}

/** A draw from the caller's `random`, kept in [0, 1); one that throws gives no jitter, and is reported. */
function unit(random: () => number): number {
  let r: unknown;
  try {
    r = random();
  } catch (e) {
    reportUnhandled(e);
    return 1;
  }
  // `!(r > 0)` also catches NaN and a non-number.
  if (typeof r !== "number" || !(r > 0)) return 0;
  return r < 1 ? r : ONE_BELOW;
}

/** The largest double below 1: the top of `Math.random`'s range. */
const ONE_BELOW = 1 - Number.EPSILON / 2;

/** What {@link errorTerm} gives for a result that is not an error result. */
export const NO_ERROR: unique symbol = /* @__PURE__ */ Symbol("no error");

/** The error term of a result, if it is an error result; hostile shapes count as no error here. */
export function errorTerm(result: unknown): unknown {
  try {
    if (typeof result === "object" && result !== null && (result as { type?: unknown }).type === "error") {
      return (result as { reason?: unknown }).reason;
    }
  } catch {
    // outcomeOf judges the shape; a retry needs a readable one
  }
  return NO_ERROR;
}
