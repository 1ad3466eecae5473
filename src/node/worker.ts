/**
 * The worker thread's side of the pool: run one call at a time, in the order posted, with the real `defaultExecutor`
 * (so results mean what they mean in-process) and send back what can cross, through the codec.
 */
import { parentPort, workerData } from "node:worker_threads";
import { defaultExecutor, error, ToolError, type HandlerResult, type Tool, type ToolCall } from "../index.js";
import { decodeThrown, encodeResult } from "./codec.js";
import type { CallMessage, FromWorker, HandlerDefinition, ToWorker, WorkerSetup } from "./protocol.js";
import { withoutPaths } from "./without-paths.js";
import { CallAbort, WorkerCallContext } from "./worker-context.js";

const port = parentPort;
if (port === null) throw new Error("toolrx/node's worker runs only as a worker thread");
const setup = workerData as WorkerSetup;
const post = (message: FromWorker): void => port.postMessage(message);
const claim = new Int32Array(setup.claim);

/** Handlers by module and export, loaded once per worker; and once loaded, to call without a wait. */
const handlers = new Map<string, Promise<unknown>>();
const loaded = new Map<string, unknown>();
/** What the pool's handler numbers stand for, as it defined them to this thread. */
const definitions = new Map<number, HandlerDefinition>();
/** The tool to run for a handler number whose handler is loaded: no key and no tool built per call. */
const tools = new Map<number, Tool>();

let running: CallAbort | undefined;
/**
 * Calls the pool posted ahead while one runs, taken in order as each answers: the pool starts a
 * call's deadline when it hears the answer before it, so none waits here on its own clock.
 */
const waiting: CallMessage[] = [];

// No top-level await: the package builds this file for CommonJS too.
void (async () => {
  for (const module of setup.preload) await import(module);
  port.on("message", (message: ToWorker) => {
    if (isCall(message)) {
      // Read now, not when it runs: a call given back unstarted (below) leaves its definition
      // here, and the pool sends the handler's next call without one.
      const definition = message[9];
      if (definition !== undefined) definitions.set(message[1], definition);
      if (running === undefined) run(message);
      else waiting.push(message);
    } else if (running?.id === message.id) {
      running.abort(decodeThrown(message.reason));
      // Its handler may never settle: the calls behind it go back to the pool, for another thread.
      for (const call of waiting.splice(0)) post({ type: "unstarted", id: call[0] });
    } else {
      const at = waiting.findIndex((call) => call[0] === message.id);
      if (at >= 0) post({ type: "unstarted", id: (waiting.splice(at, 1)[0] as CallMessage)[0] });
    }
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
function run(first: CallMessage): void {
  for (let call: CallMessage | undefined = first; call !== undefined; call = waiting.shift()) {
    const [id, number] = call;
    // Taken back by the pool while it waited here (see WorkerSetup.claim): another thread runs it, or it was cancelled.
    if (Atomics.compareExchange(claim, 0, id, 0) === -id) {
      post({ type: "unstarted", id });
      continue;
    }
    const handler = definitions.get(number) as HandlerDefinition;
    const abort = new CallAbort(id);
    running = abort;
    const outcome = execute(call, handler, abort);
    if (isThenable(outcome)) {
      const settledCall = call;
      // A rejection cannot come from execute, which answers every failure: if one did, the thread's
      // unhandled rejection ends it and the pool answers the call `handler_exit`.
      void outcome.then((settled) => {
        running = undefined;
        answer(settledCall, handler, settled);
        const next = waiting.shift();
        if (next !== undefined) run(next);
      });
      return;
    }
    running = undefined;
    // Answered before the next starts: the pool hears this answer, then starts the next one's deadline.
    answer(call, handler, outcome);
  }
}

function answer(call: CallMessage, handler: HandlerDefinition, result: HandlerResult | typeof UNSTARTED): void {
  const [id] = call;
  if (result === UNSTARTED) {
    post({ type: "unstarted", id });
    return;
  }
  const encoded = encodeResult(result);
  if (encoded.ok) {
    const wire = encoded.value;
    post(wire.type === "ok" && wire.parts === undefined ? [id, wire.value] : [id, wire, 1]);
    return;
  }
  const { toolName } = handler;
  const invalid = new ToolError("invalid_return", {
    message: `tool error (${toolName}): invalid_return: the result cannot leave the worker: ${encoded.problem}`,
    toolName,
    toolCallId: callIdOf(call),
    metadata: { crossing: encoded.problem },
  });
  const reply = encodeResult(error(invalid));
  if (reply.ok) post([id, reply.value, 1]);
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** The call's signal aborted before its handler could start: the pool answers it, saying so. */
const UNSTARTED: unique symbol = Symbol("unstarted");

type Outcome = HandlerResult | typeof UNSTARTED;

/** The handler's answer: at once when it is loaded and answers at once, else a promise of it. */
function execute(call: CallMessage, definition: HandlerDefinition, abort: CallAbort): Outcome | Promise<Outcome> {
  const ready = tools.get(call[1]);
  if (ready !== undefined) return invoke(call, ready, abort);
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
      return error(new ToolError("handler_raised", { message, toolName, toolCallId: callIdOf(call), cause: pathless(thrown) }));
    },
  );
}

/** Call the loaded `handler`, as the runner would in-process; remember it for the number's next calls. */
function start(call: CallMessage, definition: HandlerDefinition, abort: CallAbort, handler: unknown): HandlerResult | Promise<HandlerResult> {
  const { export: exportName, toolName } = definition;
  if (typeof handler !== "function") {
    const message = `tool error (${toolName}): not_found: its handler's module has no function export "${exportName}"`;
    return error(new ToolError("not_found", { message, toolName, toolCallId: callIdOf(call) }));
  }
  const tool = { name: toolName, handler } as unknown as Tool;
  tools.set(call[1], tool);
  return invoke(call, tool, abort);
}

/** Run `tool`'s handler with the real `defaultExecutor`, with what of `ctx` can travel. */
function invoke(call: CallMessage, tool: Tool, abort: CallAbort): HandlerResult | Promise<HandlerResult> {
  const [, , args, toolCall, name, callArguments, context, sessionId, requestId] = call;
  const whole = typeof toolCall === "string" ? { id: toolCall, name, arguments: callArguments } : toolCall;
  return defaultExecutor.execute(tool, args, new WorkerCallContext(context, sessionId, requestId, whole as ToolCall, abort, post));
}

/** The call's tool call id, whichever way its tool call travelled (see {@link CallMessage}). */
function callIdOf(call: CallMessage): string {
  const toolCall = call[3];
  return typeof toolCall === "string" ? toolCall : (toolCall as ToolCall).id;
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
