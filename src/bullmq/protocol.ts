import type { ToolCall } from "../index.js";
import type { WireResult } from "../node/index.js";

/**
 * What one BullMQ job carries: one attempt of one call, with nothing the worker can read from
 * elsewhere. The call's id, its idempotency key and the attempt are in the job's id
 * (`jobIdOf`), and an option at its default is left out; BullMQ stores, reads and parses
 * every byte of it once per job on the worker.
 */
export interface CallJobData {
  /** Protocol version, so a worker can refuse what it does not understand. */
  readonly v: 2;
  /** The tool the model named. */
  readonly name: string;
  /** The call's arguments as the model made them: the worker validates them against its own tools. */
  readonly args: Record<string, unknown>;
  /** The call's `rawArguments`, when the model's text was kept. */
  readonly raw?: string;
  /**
   * The arguments the attempt runs with when they are not the call's own (a `repairToolCall`
   * repair's, a `before` hook's rewrite), as the schema took them: the worker validates these
   * instead, and its handler's `ctx.toolCall` is still the model's call.
   */
  readonly input?: Record<string, unknown>;
  readonly sessionId?: string;
  readonly requestId?: string;
  /** Epoch ms (producer clock) after which the worker aborts the handler itself: a backstop for a lost cancel. */
  readonly deadline?: number;
  /** How long the worker's heartbeat on this job lasts without renewal, in ms: {@link DEFAULT_HEARTBEAT} when absent, none when `null`. */
  readonly heartbeat?: number | null;
  /** Redis lanes this job holds a lease in; the worker renews and frees them. */
  readonly lanes?: readonly { readonly lane: string; readonly limit: number }[];
}

/**
 * The previous version's job, as producers before version 2 send it: a worker still reads it,
 * and answers it with a {@link CallJobReturnV1}, so that workers can be upgraded before producers.
 */
export interface CallJobDataV1 {
  readonly v: 1;
  readonly call: ToolCall;
  readonly arguments?: Record<string, unknown>;
  readonly idempotencyKey: string;
  readonly attempt: number;
  readonly sessionId?: string;
  readonly requestId?: string;
  readonly deadline?: number;
  /** None when absent (version 1 had no default). */
  readonly heartbeat?: number;
  readonly lanes?: readonly { readonly lane: string; readonly limit: number }[];
}

/**
 * What a job returns. The common answer, an `ok` result without content parts, is its value
 * alone (`ok`, encoded by the codec as the value of a {@link WireResult} of type `ok`); any other
 * result is the whole wire result; or it was cancelled before it could answer.
 */
export type CallJobReturn =
  | { readonly v: 2; readonly ok: unknown }
  | { readonly v: 2; readonly result: WireResult }
  /** `started`: whether the handler had begun when the cancel reached it. */
  | { readonly v: 2; readonly cancelled: string; readonly started: boolean };

/** What a worker answers a version-1 job with, and what a producer re-attaching to such a job reads. */
export type CallJobReturnV1 = { readonly v: 1; readonly result: unknown } | { readonly v: 1; readonly cancelled: string; readonly started: boolean };

/** The heartbeat a job without a `heartbeat` field gets: the executor's default, in ms. */
export const DEFAULT_HEARTBEAT = 5_000;

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
