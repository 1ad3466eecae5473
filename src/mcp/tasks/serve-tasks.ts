import { extRequest, extTaskView } from "./ext-task-view.js";
import { setRequestHandler, type McpServerLike } from "../wire/index.js";
import { isEnded, McpTaskStore, type ServedTask } from "./task-store.js";
import { loadTask, type McpTaskRecords, saveLater, saveTask, type TaskCall, type TaskRun } from "./task-records.js";
import type { Tool } from "../../index.js";
import { describe, isPlainRecord } from "../../util/safe.js";

/**
 * `ServeToolsOptions.tasks`: which tools answer `tools/call` with a task (protocol revision
 * 2025-11-25, and the tasks extension of 2026-07-28 on a 2.x server).
 */
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
  /**
   * Where each task is also written down, so a server process started again serves it by its id:
   * its status, its result within `retention`, and, when the tools run on `toolrx/bullmq`, the
   * same job followed to its end. Default none: a process that ends loses its tasks.
   */
  records?: McpTaskRecords;
}

/** The checked task options, or `undefined` when tasks are not served. */
export interface TaskServing {
  readonly all: boolean;
  readonly support: "required" | "optional";
  readonly retention: number;
  readonly pollInterval: number;
  readonly store: McpTaskStore;
  readonly records: McpTaskRecords | undefined;
}

/** `options.tasks`, checked. @throws {TypeError} naming the option. */
export function taskServing(options: unknown): TaskServing | undefined {
  if (options === undefined) return undefined;
  if (!isPlainRecord(options)) throw new TypeError(`Expected \`tasks\` to be an object, got ${describe(options)}`);
  const { all = false, required = false, retention = 3_600_000, pollInterval = 1_000, store = new McpTaskStore(), records } = options as ServeTaskOptions;
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
  if (records !== undefined && (typeof records?.save !== "function" || typeof records.load !== "function")) {
    throw new TypeError(`Expected \`tasks.records\` to be { save, load }, got ${describe(records)}`);
  }
  return { all, support: required ? "required" : "optional", retention, pollInterval, store, records };
}

/** Whether `tool` is served as a task. A tool that needs approval is not: its question belongs to a request. */
export function servedAsTask(tool: Tool, serving: TaskServing | undefined): boolean {
  if (serving === undefined || tool.needsApproval !== undefined) return false;
  return serving.all || tool.metadata.longRunning === true;
}

/**
 * Start a task for one `tools/call`: `run` gets the task id (its call's id), the task's signal
 * (aborted by `tasks/cancel`) and a function that sets its status message, and its result is
 * kept as the task's. With `records`, the task is written down before it is answered. Answers the
 * `CreateTaskResult`; an empty `content` rides along because a 2.x server refuses a `tools/call`
 * answer without it (a 2025-11-25 client reads `task`).
 */
export async function startTask(serving: TaskServing, call: TaskCall, run: TaskRun, ext = false): Promise<Record<string, unknown>> {
  const { store, records } = serving;
  const served = store.create(serving.retention, serving.pollInterval);
  if (records !== undefined) {
    try {
      await saveTask(records, served, call);
    } catch (e) {
      // Not written down, not started: the client hears the error and no task runs unseen.
      store.end(served, "failed", { content: [{ type: "text", text: String(e) }], isError: true });
      throw e;
    }
  }
  begin(serving, served, call, run);
  // The tasks extension (2026-07-28) answers a flat CreateTaskResult.
  if (ext) return { resultType: "task", ...extTaskView(served, false) };
  return { task: { ...served.task }, content: [] };
}

/** Run the task's call, its status and ending kept (and written down, with `records`). */
function begin(serving: TaskServing, served: ServedTask, call: TaskCall, run: TaskRun): void {
  const { store, records } = serving;
  const end = (status: "completed" | "failed", result: Record<string, unknown>) => {
    store.end(served, status, result);
    if (records !== undefined) saveLater(records, served);
  };
  const status = (message: string) => {
    store.update(served, message);
    if (records !== undefined && !isEnded(served)) saveLater(records, served);
  };
  run(served.task.taskId, call, served.controller.signal, status).then(
    (result) => end(result.isError === true ? "failed" : "completed", result),
    (e: unknown) => end("failed", { content: [{ type: "text", text: String(e) }], isError: true }),
  );
}

/**
 * Answer `tasks/get`, `tasks/result` and `tasks/cancel` from `serving.store`, and on a 2.x server
 * the tasks extension's `tasks/get`, `tasks/update` and `tasks/cancel` (revision 2026-07-28) from
 * the same store and records.
 */
export function serveTaskRequests(server: McpServerLike, serving: TaskServing, run: TaskRun, resumes: (call: TaskCall) => boolean): void {
  const { store, records } = serving;
  /** Tasks being read back from `records`, so two requests for one do not start its call twice. */
  const loading = new Map<string, Promise<ServedTask | undefined>>();
  const load = (taskId: string): Promise<ServedTask | undefined> => {
    let pending = loading.get(taskId);
    if (pending === undefined) {
      pending = (async () => {
        const loaded = await loadTask(records as McpTaskRecords, store, taskId);
        if (loaded === undefined || isEnded(loaded.served)) return loaded?.served;
        // A task that was running when its process ended is followed again, by the same call id,
        // where that re-attaches to its work (toolrx/bullmq) or the tool is idempotent; else its fate is unknown.
        if (resumes(loaded.call)) begin(serving, loaded.served, loaded.call, run);
        else {
          const text = `The server process running this task stopped before it ended; whether the call to ${loaded.call.name} took effect is unknown, and it was not run again`;
          store.end(loaded.served, "failed", { content: [{ type: "text", text }], isError: true }, "Fate unknown: the server process stopped");
          await saveTask(records as McpTaskRecords, loaded.served);
        }
        return loaded.served;
      })().finally(() => loading.delete(taskId));
      loading.set(taskId, pending);
    }
    return pending;
  };
  const found = async (taskId: unknown, ext = false): Promise<ServedTask> => {
    const served = store.get(taskId) ?? (records !== undefined && typeof taskId === "string" && taskId !== "" ? await load(taskId) : undefined);
    // The extension's wording for an id it does not know (-32602 either way).
    if (served === undefined) throw invalidParams(`${ext ? "Failed to retrieve task: Task not found" : "Task not found"}: ${String(taskId)}`);
    return served;
  };
  setRequestHandler(server, "tasks/get", async (request, rctx) => {
    const served = await found(request.params?.taskId, extRequest(rctx));
    return rctx.inputRequired ? extTaskView(served, true) : { ...served.task };
  });
  // toolrx's task calls ask nothing (a tool that needs approval is not served as a task): an
  // answer names no outstanding request, and the extension has such answers ignored.
  setRequestHandler(server, "tasks/update", async (request, rctx) => {
    await found(request.params?.taskId, extRequest(rctx));
    return {};
  });
  setRequestHandler(server, "tasks/result", async (request, rctx) => {
    const served = await found(request.params?.taskId);
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
  setRequestHandler(server, "tasks/cancel", async (request, rctx) => {
    const ext = extRequest(rctx);
    const served = await found(request.params?.taskId, ext);
    // The extension's cancel is an acknowledgement: a task that ended first stays as it ended.
    if (ext && isEnded(served)) return {};
    if (isEnded(served)) throw invalidParams(`Cannot cancel task in terminal status: ${served.task.status}`);
    served.controller.abort(new Error("the client cancelled the task"));
    store.end(served, "cancelled", { content: [{ type: "text", text: "The task was cancelled" }], isError: true }, "Cancelled by the client");
    if (records !== undefined) await saveTask(records, served);
    return ext ? {} : { ...served.task };
  });
}

/** A JSON-RPC "invalid params" error (-32602), which both SDK lines send with its code. */
function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: -32602 });
}
