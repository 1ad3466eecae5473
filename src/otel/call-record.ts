import type { Context, Span } from "@opentelemetry/api";

/** One call's span while it runs, from `started` to its tail event. */
export interface CallRecord {
  readonly span: Span;
  /** The parent's context with this call's span set: what the handler runs in (none: as is). */
  readonly context: Context | undefined;
  readonly toolCallId: string;
  readonly toolName: string;
  /** `performance.now()` at `started`. */
  readonly start: number;
  executed: boolean;
  /** The error term the policy function was asked about, when it was. */
  policyError: unknown;
  asked: boolean;
  /** Attempts made so far, from the side channel's `attempt_failed` reports (1 until one fails). */
  attempts: number;
  /** Progress reports so far. */
  progressReports: number;
  /** A recipe's sub-steps still running, as child spans, by step call id. */
  steps: Map<string, Span> | undefined;
  /** The next running call with the same id (ids should be unique; models do not always agree). */
  sameId: CallRecord | undefined;
}
