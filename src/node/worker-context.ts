import type { HandlerContext, LogEntry, ProgressUpdate, SampleReply, SampleRequest, ToolCall, ToolSchema } from "../index.js";
import { askUserInCall, sampleInCall } from "../internal.js";
import { encodeThrown } from "./codec.js";
import type { FromWorker, WireProgress } from "./protocol.js";

/**
 * The running call's abort, its `AbortController` made only when the handler first reads
 * `ctx.signal`: most handlers never do, and a controller per call was the worker's top cost.
 */
export class CallAbort {
  #controller: AbortController | undefined;
  aborted = false;
  reason: unknown;

  constructor(readonly id: number) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * A handler's `ctx` in a worker thread: what of the runner's `ctx` can travel, with progress and
 * logs posted back to the pool. A class, as the runner's own `ctx` is: one object per call, its
 * methods on the prototype rather than five closures per call.
 */
export class WorkerCallContext implements HandlerContext {
  readonly engine: unknown = undefined;
  readonly #abort: CallAbort;
  readonly #post: (message: FromWorker) => void;

  constructor(
    readonly context: unknown,
    readonly sessionId: string | undefined,
    readonly requestId: string | undefined,
    readonly toolCall: ToolCall,
    abort: CallAbort,
    post: (message: FromWorker) => void,
  ) {
    this.#abort = abort;
    this.#post = post;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  progress(update: ProgressUpdate): void {
    // Checked by the runner's own ctx.progress, which drops and reports a malformed one.
    this.#post({ type: "progress", id: this.#abort.id, update: wireProgress(update) });
  }

  log(entry: LogEntry): void {
    this.#post({ type: "log", id: this.#abort.id, entry: wireProgress(entry) });
  }

  /**
   * No client reaches a worker thread: a question ends the call as `ask_user`. Typed
   * `Promise<never>`, as the runner's own `ctx` types it: it fits the interface's generic answer.
   */
  askUser(question: string, schema: ToolSchema): Promise<never> {
    return askUserInCall(this, undefined, question, schema) as Promise<never>;
  }

  /** No model reaches a worker thread: sampling is refused as the runner refuses it without a client. */
  sample(request: SampleRequest): Promise<SampleReply> {
    return sampleInCall(this, undefined, request);
  }
}

/** What a handler reported, as it crosses: a value through the codec, a function or symbol by its name. */
function wireProgress(update: unknown): WireProgress {
  if (typeof update === "symbol") return { kind: "symbol", name: update.description ?? "" };
  if (typeof update !== "function") return { kind: "value", value: encodeThrown(update) };
  let name: unknown;
  try {
    name = update.name;
  } catch {
    name = "";
  }
  return { kind: "function", name: typeof name === "string" ? name : "" };
}
