import type { ToolCall } from "../index.js";

/** What one BullMQ job carries: one attempt of one call. */
export interface CallJobData {
  /** Protocol version, so a worker can refuse what it does not understand. */
  readonly v: 1;
  /** The call as the model made it: the worker validates its arguments against its own tools. */
  readonly call: ToolCall;
  /**
   * The arguments the attempt runs with when they are not the call's own (a `repairToolCall`
   * repair's, a `before` hook's rewrite), as the schema took them: the worker validates these
   * instead, and its handler's `ctx.toolCall` is still the model's call.
   */
  readonly arguments?: Record<string, unknown>;
  readonly idempotencyKey: string;
  readonly attempt: number;
  readonly sessionId?: string;
  readonly requestId?: string;
  /** Epoch ms (producer clock) after which the worker aborts the handler itself: a backstop for a lost cancel. */
  readonly deadline?: number;
  /** How long the worker's heartbeat on this job lasts without renewal, in ms; none when absent. */
  readonly heartbeat?: number;
  /** Redis lanes this job holds a lease in; the worker renews and frees them. */
  readonly lanes?: readonly { readonly lane: string; readonly limit: number }[];
}

/** What a job returns: the result through the codec, or that it was cancelled before it could answer. */
export type CallJobReturn =
  | { readonly v: 1; readonly result: unknown }
  /** `started`: whether the handler had begun when the cancel reached it. */
  | { readonly v: 1; readonly cancelled: string; readonly started: boolean };

/** The BullMQ job name of call jobs (one queue may carry other jobs too). */
export const CALL_JOB = "toolrx.call";

/** Redis keys this package adds next to a BullMQ queue's own. */
export function keysOf(prefix: string, queue: string) {
  const base = `${prefix}:${queue}:toolrx`;
  return {
    cancelChannel: `${base}:cancel`,
    cancelMarker: (jobId: string) => `${base}:cancel:${jobId}`,
    heartbeat: (jobId: string) => `${base}:alive:${jobId}`,
    lane: (lane: string) => `${base}:lane:${lane}`,
    events: `${prefix}:${queue}:events`,
  };
}

/** Keys of {@link keysOf}. */
export type QueueKeys = ReturnType<typeof keysOf>;
