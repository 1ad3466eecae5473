/**
 * The worker thread's side of the pool: run one call at a time with the real `defaultExecutor`
 * (so results mean what they mean in-process) and send back what can cross, through the codec.
 */
import { parentPort, workerData } from "node:worker_threads";
import { defaultExecutor, error, ToolError, type HandlerContext, type HandlerResult, type ProgressUpdate, type Tool, type ToolCall } from "../index.js";
import { decodeThrown, encodeResult, encodeThrown } from "./codec.js";
import type { CallMessage, FromWorker, ToWorker, WorkerSetup } from "./protocol.js";

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
  let result: HandlerResult;
  try {
    result = await execute(call, controller.signal);
  } finally {
    running = undefined;
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

async function execute(call: CallMessage, signal: AbortSignal): Promise<HandlerResult> {
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
  } catch (cause) {
    handlers.delete(key); // a module that failed to load may load next time (a file being written)
    const message = `tool error (${call.toolName}): handler_raised: loading ${call.module} failed`;
    return error(new ToolError("handler_raised", { message, toolName: call.toolName, toolCallId, cause }));
  }
  if (typeof handler !== "function") {
    const message = `tool error (${call.toolName}): not_found: ${call.module} has no function export "${call.export}"`;
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
      if (typeof update !== "object" || update === null || typeof update.progress !== "number") {
        throw new TypeError(`Expected \`ctx.progress\` to get { progress: number, total?, message?, data? }, got ${update === null ? "null" : typeof update}`);
      }
      const { progress, total, message, data } = update;
      post({
        type: "progress",
        id: call.id,
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
        data: encodeThrown(data),
      });
    },
  };
  return defaultExecutor.execute(tool, call.args, ctx);
}
