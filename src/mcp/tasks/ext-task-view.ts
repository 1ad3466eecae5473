import { optsIntoTasks, TASKS_EXTENSION } from "./ext-task.js";
import type { McpRequestContext } from "../wire/index.js";
import { isEnded, type ServedTask } from "./task-store.js";

/**
 * A served task as the tasks extension (revision 2026-07-28) shows it: `ttlMs` and
 * `pollIntervalMs`, and, with `inline` (a `tasks/get`), what its status carries. A tool's
 * `isError` result, which revision 2025-11-25 ends `failed`, is `completed` here with that result:
 * the extension keeps `failed` for JSON-RPC errors, and toolrx's task calls always end in a result.
 */
export function extTaskView(served: ServedTask, inline: boolean): Record<string, unknown> {
  const { ttl, pollInterval, status, ...task } = served.task;
  const ended = isEnded(served) && status !== "cancelled";
  const view: Record<string, unknown> = { ...task, status: ended ? "completed" : status, ttlMs: ttl, pollIntervalMs: pollInterval };
  if (inline && ended) view.result = served.result;
  return view;
}

/**
 * Whether `rctx` is a 2026-07-28 request; one that did not opt into the extension is refused
 * with `-32021` (Missing Required Client Capability), as the extension has it for `tasks/*`.
 */
export function extRequest(rctx: McpRequestContext): boolean {
  if (!rctx.inputRequired) return false;
  if (optsIntoTasks(rctx.clientCapabilities())) return true;
  throw Object.assign(new Error("Missing required client capability"), {
    code: -32021,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  });
}
