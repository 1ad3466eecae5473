/**
 * The worker thread's side of the pool: run one call at a time with the real `defaultExecutor`
 * (so results mean what they mean in-process) and send back what can cross, through the codec.
 */
import { parentPort, workerData } from "node:worker_threads";
import { defaultExecutor, error, ToolError, type HandlerContext, type HandlerResult, type ProgressUpdate, type Tool, type ToolCall } from "../index.js";
import { decodeThrown, encodeResult, encodeThrown } from "./codec.js";
import { withoutPaths } from "./without-paths.js";
import type { CallMessage, FromWorker, ToWorker, WireProgress, WorkerSetup } from "./protocol.js";

const port = parentPort;
if (port === null) throw new Error("toolrx/node's worker runs only as a worker thread");
const setup = workerData as WorkerSetup;
const post = (message: FromWorker): void => port.postMessage(message);

/** Handlers by module and export, loaded once per worker. */
const handlers = new Map<string, Promise<unknown>>();
let running: { readonly id: number; readonly controller: AbortController } | undefined;

// No top-level await: the package builds this file for CommonJS too.
void (async () => {
  for (const module of setup.preload) await import(module);
  port.on("message", (message: ToWorker) => {
    if (message.type === "abort") {
      if (running?.id === message.id) running.controller.abort(decodeThrown(message.reason));
    } else {
      void run(message);
    }
  });
  post({ type: "ready" });
})();

async function run(call: CallMessage): Promise<void> {
  const controller = new AbortController();
  running = { id: call.id, controller };
  let result: HandlerResult | typeof UNSTARTED;
  try {
    result = await execute(call, controller.signal);
  } finally {
    running = undefined;
  }
  if (result === UNSTARTED) {
    post({ type: "unstarted", id: call.id });
    return;
  }
  const encoded = encodeResult(result);
  if (encoded.ok) {
    post({ type: "result", id: call.id, result: encoded.value });
    return;
  }
  const { toolName, toolCall } = call;
  const invalid = new ToolError("invalid_return", {
    message: `tool error (${toolName}): invalid_return: the result cannot leave the worker: ${encoded.problem}`,
    toolName,
    toolCallId: (toolCall as ToolCall).id,
    metadata: { crossing: encoded.problem },
  });
  const answer = encodeResult(error(invalid));
  if (answer.ok) post({ type: "result", id: call.id, result: answer.value });
}

/** The call's signal aborted before its handler could start: the pool answers it, saying so. */
const UNSTARTED: unique symbol = Symbol("unstarted");

async function execute(call: CallMessage, signal: AbortSignal): Promise<HandlerResult | typeof UNSTARTED> {
  const toolCall = call.toolCall as ToolCall;
  const toolCallId = toolCall.id;
  const key = `${call.export}\0${call.module}`;
  let loading = handlers.get(key);
  if (loading === undefined) {
    loading = import(call.module).then((m: Record<string, unknown>) => m[call.export]);
    handlers.set(key, loading);
  }
  let handler: unknown;
  try {
    handler = await loading;
  } catch (thrown) {
    handlers.delete(key); // a module that failed to load may load next time (a file being written)
    const message = `tool error (${call.toolName}): handler_raised: its handler's module failed to load`;
    return error(new ToolError("handler_raised", { message, toolName: call.toolName, toolCallId, cause: pathless(thrown) }));
  }
  // The deadline may have passed while the module loaded: a handler started now would get an
  // aborted signal, whose listeners never fire, and run until its thread is killed.
  if (signal.aborted) return UNSTARTED;
  if (typeof handler !== "function") {
    const message = `tool error (${call.toolName}): not_found: its handler's module has no function export "${call.export}"`;
    return error(new ToolError("not_found", { message, toolName: call.toolName, toolCallId }));
  }
  const tool = { name: call.toolName, handler } as unknown as Tool;
  const ctx: HandlerContext = {
    context: call.context,
    sessionId: call.sessionId,
    requestId: call.requestId,
    toolCall,
    engine: undefined,
    signal,
    progress(update: ProgressUpdate): void {
      // Checked by the runner's own ctx.progress, which drops and reports a malformed one.
      post({ type: "progress", id: call.id, update: wireProgress(update) });
    },
  };
  return defaultExecutor.execute(tool, call.args, ctx);
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
