import { isToolError } from "../tool/tool-error.js";
import type { RetryPlan } from "../tool/retry-policy.js";
import type { ToolErrorReason } from "../tool/tool-error.js";

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

/** The backoff after failed attempt `attempt` (from 1): exponential, capped, with full jitter. */
export function backoff(plan: RetryPlan, attempt: number): number {
  const ceiling = Math.min(plan.maxDelay, plan.delay * plan.factor ** (attempt - 1));
  return plan.jitter ? Math.random() * ceiling : ceiling;
}

/** What {@link errorTerm} gives for a result that is not an error result. */
export const NO_ERROR: unique symbol = Symbol("no error");

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
