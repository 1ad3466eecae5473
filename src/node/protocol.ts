import type { Wire, WireResult } from "./codec.js";

/**
 * The messages between the pool and its workers. Inputs (arguments, context, the call) go by
 * structured clone, as the runner holds them; a result, an abort reason and progress data go
 * through the codec, so they mean on the other side what they meant here.
 */

/** Run a handler: `module`'s `export`, with what of `ctx` can travel. */
export interface CallMessage {
  readonly type: "call";
  readonly id: number;
  readonly module: string;
  readonly export: string;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  readonly toolCall: unknown;
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
}

/** Abort the running handler's `ctx.signal` with `reason`. */
export interface AbortMessage {
  readonly type: "abort";
  readonly id: number;
  readonly reason: Wire;
}

export type ToWorker = CallMessage | AbortMessage;

/** What a worker says: it is ready (preloads imported), a call's result, or its progress. */
export type FromWorker =
  | { readonly type: "ready" }
  | { readonly type: "result"; readonly id: number; readonly result: WireResult }
  | { readonly type: "progress"; readonly id: number; readonly progress: number; readonly total?: number; readonly message?: string; readonly data: Wire };

/** What the pool gives a worker at start, as `workerData`. */
export interface WorkerSetup {
  readonly preload: readonly string[];
}
