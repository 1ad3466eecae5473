import type { CallReport, JournalReattach, ToolCall } from "../../index.js";
import { mcpReattachCall } from "./reattach-call.js";
import { isPlainRecord } from "../../util/safe.js";

/**
 * `journal.reattach` for MCP tasks: the journal keeps the task id each task call reports (on its
 * progress, `data.mcpTask.taskId`), and an agent started again after its process stopped sends
 * `mcpReattachCall(call, taskId)` for a call that was running: it follows the task with
 * `tasks/get` and `tasks/result` (2025-11-25) or `tasks/get` (the 2026-07-28 tasks extension), so the server's work is neither lost nor done twice. A call
 * that named no task yet (it stopped before the server answered) keeps the journal's rule: its
 * fate is unknown, unless the tool is idempotent.
 *
 * @example
 * const tools = await mcpTools(client, { tasks: {} });
 * await runAgent({ model, tools, messages, journal: { store, conversationKey: "conv-7", reattach: mcpJournalReattach } });
 */
export const mcpJournalReattach: JournalReattach = Object.freeze({
  handleOf(report: CallReport): string | undefined {
    if (report.type !== "progress" || !isPlainRecord(report.data)) return undefined;
    const task = report.data.mcpTask;
    return isPlainRecord(task) && typeof task.taskId === "string" && task.taskId !== "" ? task.taskId : undefined;
  },
  callOf(call: ToolCall, handle: string): ToolCall {
    return mcpReattachCall(call, handle);
  },
});
