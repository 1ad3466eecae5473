import { setRequestHandler, type McpServerLike } from "./server-like.js";
import { isEnded, McpTaskStore, type ServedTask } from "./task-store.js";
import type { Tool } from "../index.js";
import { describe, isPlainRecord } from "../util/safe.js";

/** `ServeToolsOptions.tasks`: which tools answer `tools/call` with a task (protocol revision 2025-11-25). */
export interface ServeTaskOptions {
  /** Serve every tool as a task; default: only tools marked `metadata.longRunning: true`. */
  all?: boolean;
  /** List them with `taskSupport: "required"` (clients must ask for a task); default `"optional"`. */
  required?: boolean;
  /** How long an ended task and its result are kept, in ms; default 3,600,000 (an hour). */
  retention?: number;
  /** The `pollInterval` hint given to clients, in ms; default 1,000. */
  pollInterval?: number;
  /** Where tasks are kept; default a store of this `serveTools` call. Share one between server instances. */
  store?: McpTaskStore;
}

/** The checked task options, or `undefined` when tasks are not served. */
export interface TaskServing {
  readonly all: boolean;
  readonly support: "required" | "optional";
  readonly retention: number;
  readonly pollInterval: number;
  readonly store: McpTaskStore;
}

/** `options.tasks`, checked. @throws {TypeError} naming the option. */
export function taskServing(options: unknown): TaskServing | undefined {
  if (options === undefined) return undefined;
  if (!isPlainRecord(options)) throw new TypeError(`Expected \`tasks\` to be an object, got ${describe(options)}`);
  const { all = false, required = false, retention = 3_600_000, pollInterval = 1_000, store = new McpTaskStore() } = options as ServeTaskOptions;
  if (typeof all !== "boolean") throw new TypeError(`Expected \`tasks.all\` to be a boolean, got ${describe(all)}`);
  if (typeof required !== "boolean") throw new TypeError(`Expected \`tasks.required\` to be a boolean, got ${describe(required)}`);
  for (const [name, value] of [
    ["retention", retention],
    ["pollInterval", pollInterval],
  ] as const) {
    if (!(typeof value === "number" && value > 0 && value <= 2_147_483_647)) {
      throw new TypeError(`Expected \`tasks.${name}\` to be a positive number of ms up to 2147483647, got ${describe(value)}`);
    }
  }
  if (!(store instanceof McpTaskStore)) throw new TypeError(`Expected \`tasks.store\` to be an McpTaskStore, got ${describe(store)}`);
  return { all, support: required ? "required" : "optional", retention, pollInterval, store };
}

/** Whether `tool` is served as a task. A tool that needs approval is not: its question belongs to a request. */
export function servedAsTask(tool: Tool, serving: TaskServing | undefined): boolean {
  if (serving === undefined || tool.needsApproval !== undefined) return false;
  return serving.all || tool.metadata.longRunning === true;
}

/**
 * Start a task for one `tools/call`: `run` gets the task's signal (aborted by `tasks/cancel`) and
 * a function that sets its status message, and its result is kept as the task's. Answers the
 * `CreateTaskResult`; an empty `content` rides along because a 2.x server refuses a `tools/call`
 * answer without it (a 2025-11-25 client reads `task`).
 */
export function startTask(
  serving: TaskServing,
  run: (signal: AbortSignal, status: (message: string) => void) => Promise<Record<string, unknown>>,
): Record<string, unknown> {
  const { store } = serving;
  const served = store.create(serving.retention, serving.pollInterval);
  run(served.controller.signal, (message) => store.update(served, message)).then(
    (result) => store.end(served, result.isError === true ? "failed" : "completed", result),
    (e: unknown) => store.end(served, "failed", { content: [{ type: "text", text: String(e) }], isError: true }),
  );
  return { task: { ...served.task }, content: [] };
}

/** Answer `tasks/get`, `tasks/result` and `tasks/cancel` from `serving.store`. */
export function serveTaskRequests(server: McpServerLike, serving: TaskServing): void {
  const { store } = serving;
  const found = (taskId: unknown): ServedTask => {
    const served = store.get(taskId);
    if (served === undefined) throw invalidParams(`Task not found: ${String(taskId)}`);
    return served;
  };
  setRequestHandler(server, "tasks/get", async (request) => ({ ...found(request.params?.taskId).task }));
  setRequestHandler(server, "tasks/result", async (request, rctx) => {
    const served = found(request.params?.taskId);
    // The spec has tasks/result block until the task ends.
    if (!isEnded(served)) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          rctx.signal.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          served.waiting.delete(wake);
          reject(rctx.signal.reason);
        };
        served.waiting.add(wake);
        rctx.signal.addEventListener("abort", onAbort, { once: true });
      });
    }
    const related = { "io.modelcontextprotocol/related-task": { taskId: served.task.taskId } };
    return { ...served.result, _meta: related };
  });
  setRequestHandler(server, "tasks/cancel", async (request) => {
    const served = found(request.params?.taskId);
    if (isEnded(served)) throw invalidParams(`Cannot cancel task in terminal status: ${served.task.status}`);
    served.controller.abort(new Error("the client cancelled the task"));
    store.end(served, "cancelled", { content: [{ type: "text", text: "The task was cancelled" }], isError: true }, "Cancelled by the client");
    return { ...served.task };
  });
}

/** A JSON-RPC "invalid params" error (-32602), which both SDK lines send with its code. */
function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: -32602 });
}
