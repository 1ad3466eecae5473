/**
 * The worker thread's side of the pool: run one call at a time with the real `defaultExecutor`
 * (so results mean what they mean in-process) and send back what can cross, through the codec.
 */
import { parentPort, workerData } from "node:worker_threads";
import {
  defaultExecutor,
  error,
  ToolError,
  type HandlerContext,
  type HandlerResult,
  type LogEntry,
  type ProgressUpdate,
  type Tool,
  type ToolCall,
} from "../index.js";
import { askUserInCall, sampleInCall } from "../internal.js";
import { decodeThrown, encodeResult, encodeThrown } from "./codec.js";
import { withoutPaths } from "./without-paths.js";
import type { CallMessage, FromWorker, HandlerDefinition, ToWorker, WireProgress, WorkerSetup } from "./protocol.js";

const port = parentPort;
if (port === null) throw new Error("toolrx/node's worker runs only as a worker thread");
const setup = workerData as WorkerSetup;
const post = (message: FromWorker): void => port.postMessage(message);

/** Handlers by module and export, loaded once per worker; and once loaded, to call without a wait. */
const handlers = new Map<string, Promise<unknown>>();
const loaded = new Map<string, unknown>();
/** What the pool's handler numbers stand for, as it defined them to this thread. */
const definitions = new Map<number, HandlerDefinition>();

/**
 * The running call's abort, its `AbortController` made only when the handler first reads
 * `ctx.signal`: most handlers never do, and a controller per call was the worker's top cost.
 */
class CallAbort {
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

let running: CallAbort | undefined;

// No top-level await: the package builds this file for CommonJS too.
void (async () => {
  for (const module of setup.preload) await import(module);
  port.on("message", (message: ToWorker) => {
    if (isCall(message)) run(message);
    else if (running?.id === message.id) running.abort(decodeThrown(message.reason));
  });
  post({ type: "ready" });
})();

function isCall(message: ToWorker): message is CallMessage {
  return Array.isArray(message);
}

/**
 * Run a call and post its answer. Synchronously when its handler is loaded and answers at once:
 * no promise and no microtask between the call's message and its answer's.
 */
function run(call: CallMessage): void {
  const [id, number, , , , , , definition] = call;
  if (definition !== undefined) definitions.set(number, definition);
  const handler = definitions.get(number) as HandlerDefinition;
  const abort = new CallAbort(id);
  running = abort;
  const outcome = execute(call, handler, abort);
  if (!isThenable(outcome)) {
    running = undefined;
    answer(call, handler, outcome);
    return;
  }
  // A rejection cannot come from execute, which answers every failure: if one did, the thread's
  // unhandled rejection ends it and the pool answers the call `handler_exit`.
  void outcome.then((settled) => {
    running = undefined;
    answer(call, handler, settled);
  });
}

function answer(call: CallMessage, handler: HandlerDefinition, result: HandlerResult | typeof UNSTARTED): void {
  const [id, , , toolCall] = call;
  if (result === UNSTARTED) {
    post({ type: "unstarted", id });
    return;
  }
  const encoded = encodeResult(result);
  if (encoded.ok) {
    post([id, encoded.value]);
    return;
  }
  const { toolName } = handler;
  const invalid = new ToolError("invalid_return", {
    message: `tool error (${toolName}): invalid_return: the result cannot leave the worker: ${encoded.problem}`,
    toolName,
    toolCallId: (toolCall as ToolCall).id,
    metadata: { crossing: encoded.problem },
  });
  const reply = encodeResult(error(invalid));
  if (reply.ok) post([id, reply.value]);
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** The call's signal aborted before its handler could start: the pool answers it, saying so. */
const UNSTARTED: unique symbol = Symbol("unstarted");

type Outcome = HandlerResult | typeof UNSTARTED;

/** The handler's answer: at once when it is loaded and answers at once, else a promise of it. */
function execute(call: CallMessage, definition: HandlerDefinition, abort: CallAbort): Outcome | Promise<Outcome> {
  const { module, export: exportName, toolName } = definition;
  const key = `${exportName}\0${module}`;
  if (loaded.has(key)) return start(call, definition, abort, loaded.get(key));
  let loading = handlers.get(key);
  if (loading === undefined) {
    loading = import(module).then((m: Record<string, unknown>) => m[exportName]);
    handlers.set(key, loading);
  }
  return loading.then(
    (handler) => {
      loaded.set(key, handler);
      // The deadline may have passed while the module loaded: a handler started now would get an
      // aborted signal, whose listeners never fire, and run until its thread is killed.
      return abort.aborted ? UNSTARTED : start(call, definition, abort, handler);
    },
    (thrown: unknown) => {
      handlers.delete(key); // a module that failed to load may load next time (a file being written)
      const message = `tool error (${toolName}): handler_raised: its handler's module failed to load`;
      return error(new ToolError("handler_raised", { message, toolName, toolCallId: (call[3] as ToolCall).id, cause: pathless(thrown) }));
    },
  );
}

/** Call the loaded `handler` with the real `defaultExecutor`, as the runner would in-process. */
function start(call: CallMessage, definition: HandlerDefinition, abort: CallAbort, handler: unknown): HandlerResult | Promise<HandlerResult> {
  const [id, , args, wireCall, context, sessionId, requestId] = call;
  const { export: exportName, toolName } = definition;
  const toolCall = wireCall as ToolCall;
  if (typeof handler !== "function") {
    const message = `tool error (${toolName}): not_found: its handler's module has no function export "${exportName}"`;
    return error(new ToolError("not_found", { message, toolName, toolCallId: toolCall.id }));
  }
  const tool = { name: toolName, handler } as unknown as Tool;
  const ctx: HandlerContext = {
    context,
    sessionId,
    requestId,
    toolCall,
    engine: undefined,
    get signal() {
      return abort.signal;
    },
    progress(update: ProgressUpdate): void {
      // Checked by the runner's own ctx.progress, which drops and reports a malformed one.
      post({ type: "progress", id, update: wireProgress(update) });
    },
    log(entry: LogEntry): void {
      post({ type: "log", id, entry: wireProgress(entry) });
    },
    // No client reaches a worker thread: a question ends the call as `ask_user`, sampling has no model.
    askUser: (question, schema) => askUserInCall(ctx, undefined, question, schema) as never,
    sample: (request) => sampleInCall(ctx, undefined, request),
  };
  return defaultExecutor.execute(tool, args, ctx);
}

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

/**
 * What a module that failed to load threw, as the model may read it: the same class and message
 * with file paths cut to file names, and the error itself as its `cause`, for the host.
 */
function pathless(thrown: unknown): unknown {
  if (!(thrown instanceof Error)) return thrown;
  const shown = new Error(withoutPaths(thrown.message), { cause: thrown });
  Object.defineProperty(shown, "name", { value: thrown.name, writable: true, configurable: true });
  return shown;
}
