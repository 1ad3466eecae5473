import type { Wire, WireResult } from "./codec.js";

/**
 * The messages between the pool and its workers. Inputs (arguments, context, the call) go by
 * structured clone, as the runner holds them; a result, an abort reason and progress data go
 * through the codec, so they mean on the other side what they meant here.
 */

/**
 * Run a handler, with what of `ctx` can travel. A tuple, not an object: a call crosses to its
 * thread by structured clone, which writes every key of an object; the handler is named by a
 * number, defined (module, export, tool) the first time a thread is sent it. A tool call that is
 * only `id`, `name` and `arguments` (what the runner makes of most calls) travels as those three
 * values, `callName` and `callArguments` set, and the thread builds it again: one object fewer to
 * clone each way, 0.6 µs of a call's messages; any other tool call travels as it is.
 */
export type CallMessage = readonly [
  id: number,
  handler: number,
  args: Record<string, unknown>,
  toolCall: string | object,
  callName: string | undefined,
  callArguments: Record<string, unknown> | undefined,
  context: unknown,
  sessionId: string | undefined,
  requestId: string | undefined,
  definition?: HandlerDefinition,
];

/** The handler a number stands for, in the thread it was sent to. */
export interface HandlerDefinition {
  readonly module: string;
  readonly export: string;
  readonly toolName: string;
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
  /** A call's result, as a tuple: one per call, so it is kept small. */
  | ResultMessage
  | { readonly type: "progress"; readonly id: number; readonly update: WireProgress }
  /** What the handler passed to `ctx.log`, encoded as progress is: the runner's `ctx.log` checks it. */
  | { readonly type: "log"; readonly id: number; readonly entry: WireProgress }
  | { readonly type: "unstarted"; readonly id: number };

/** What the pool gives a worker at start, as `workerData`. */
export interface WorkerSetup {
  readonly preload: readonly string[];
  /**
   * One `Int32Array` cell through which the pool and the thread claim a call posted ahead, so
   * that exactly one of them has it. The pool writes the call's id there as it posts it ahead;
   * the thread, before it starts any call, exchanges the call's id for 0 and starts it unless it
   * finds `-id` there: the pool took it back first, exchanging `id` for `-id`, to run it on an
   * idle thread or to answer it not-started (its signal aborted). The thread then answers it
   * `unstarted`, and the pool, which no longer counts it there, ignores that answer.
   */
  readonly claim: SharedArrayBuffer;
}

/**
 * A call's result, as a tuple: an `ok` result without parts (what most handlers answer) as its
 * encoded value alone, `[id, value]`; any other as the codec writes it, `[id, result, 1]`. The
 * result object `{ type: "ok", value }` is not sent: one object fewer to clone on either side,
 * 0.5 µs of a call's answer (`structuredClone` of `[1, { type: "ok", value: 5 }]` against `[1, 5]`).
 */
export type ResultMessage = readonly [id: number, value: Wire] | readonly [id: number, result: WireResult, whole: 1];

/** Whether a worker's message is a call's result (the one message that is a tuple). */
export function isResult(message: FromWorker): message is ResultMessage {
  return Array.isArray(message);
}
