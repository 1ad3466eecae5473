import type { McpTaskStatus } from "./task-state.js";
import { isEnded, type McpTaskStore, type ServedTask } from "./task-store.js";
import { reportUnhandled } from "../../util/report-unhandled.js";
import { isPlainRecord } from "../../util/safe.js";

/**
 * Where `serveTools` writes down each task it serves, so that a server process started again
 * finds it (`tasks.records`): a key-value store with expiry, such as Redis, through a few lines of
 * yours (see docs/mcp.md). A record is a JSON string; `ttlMs` is `Infinity` while the task runs
 * and the task's retention once it ended. Each may answer synchronously or with a promise.
 *
 * With the tools run on `toolrx/bullmq` (`bullmqExecutor` with a fixed `key`, as `serveTools`'s
 * `toolExecutor`), a task's call has the task id as its call id, so its job id derives from the
 * task id: a server started again follows the same job rather than running the tool again.
 */
export interface McpTaskRecords {
  save(taskId: string, record: string, ttlMs: number): void | Promise<void>;
  /** The record saved last for `taskId`, or `undefined` when there is none (never saved, or expired). */
  load(taskId: string): string | undefined | Promise<string | undefined>;
}

/** The call a task runs: enough to run it again, by the same id, in a process started again. */
export interface TaskCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** Runs a task's call; `taskId` is its call id. */
export type TaskRun = (taskId: string, call: TaskCall, signal: AbortSignal, status: (message: string) => void) => Promise<Record<string, unknown>>;

const STATUSES: readonly McpTaskStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];

/** The saves of each task, in order: a status must never overwrite the ending saved after it. */
const queues = new WeakMap<ServedTask, Promise<void>>();

/** Each task's call, as first written down with it. */
const calls = new WeakMap<ServedTask, TaskCall>();

/** Write the task down (after its earlier saves), with its call (given once); resolves once it is. */
export function saveTask(records: McpTaskRecords, served: ServedTask, given?: TaskCall): Promise<void> {
  if (given !== undefined) calls.set(served, given);
  const call = calls.get(served);
  const record = JSON.stringify({ task: served.task, call, ...(served.result === undefined ? {} : { result: served.result }) });
  const ttl = isEnded(served) ? served.task.ttl : Infinity;
  const next = (queues.get(served) ?? Promise.resolve()).then(() => records.save(served.task.taskId, record, ttl));
  const settled = next.catch(() => {});
  queues.set(served, settled);
  return next;
}

/** {@link saveTask} for a change while the task runs: a save that fails is reported, the task goes on. */
export function saveLater(records: McpTaskRecords, served: ServedTask): void {
  saveTask(records, served).catch(reportUnhandled);
}

/** A task found in `records` only, put back in `store`; its call, to run again when it had not ended. */
export async function loadTask(records: McpTaskRecords, store: McpTaskStore, taskId: string): Promise<{ served: ServedTask; call: TaskCall } | undefined> {
  const text = await records.load(taskId);
  if (typeof text !== "string") return undefined;
  const record: unknown = JSON.parse(text);
  if (!isPlainRecord(record) || !isPlainRecord(record.task) || !isPlainRecord(record.call)) return undefined;
  const { task, call, result } = record;
  const { name, arguments: args } = call;
  if (task.taskId !== taskId || !STATUSES.includes(task.status as McpTaskStatus) || typeof name !== "string" || !isPlainRecord(args)) return undefined;
  const served = store.restore(task as ServedTask["task"], isPlainRecord(result) ? result : undefined);
  const restored = { name, arguments: args };
  calls.set(served, restored);
  return { served, call: restored };
}
