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

/**
 * What a handler passed to `ctx.progress`, whatever it is: the pool hands it to the runner's own
 * `ctx.progress`, which checks it there as it checks an in-process handler's. A function or a
 * symbol travels as its name, so that a dropped report describes it as it would in-process.
 */
export type WireProgress = { readonly kind: "value"; readonly value: Wire } | { readonly kind: "function" | "symbol"; readonly name: string };

/**
 * What a worker says: it is ready (preloads imported), a call's result, its progress, or that its
 * handler did not start because the call's signal aborted while the module loaded.
 */
export type FromWorker =
  | { readonly type: "ready" }
  | { readonly type: "result"; readonly id: number; readonly result: WireResult }
  | { readonly type: "progress"; readonly id: number; readonly update: WireProgress }
  | { readonly type: "unstarted"; readonly id: number };

/** What the pool gives a worker at start, as `workerData`. */
export interface WorkerSetup {
  readonly preload: readonly string[];
}
