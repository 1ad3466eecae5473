import type { ToolCall } from "../../index.js";
import { describe } from "../../util/safe.js";

/**
 * The call that re-attaches to an MCP task a call started before (in this process or one that
 * ended): the same call, with `metadata.mcpTask.taskId`. Its handler follows the task with
 * `tasks/get` and `tasks/result` (with `tasks/get` alone on a server of the 2026-07-28 tasks
 * extension, whose ended task carries its result) and never calls the tool again, so work the server already did
 * is not done twice. The task id comes from the call's progress reports (`data.mcpTask.taskId`
 * on `onCallReport`), which a journal keeps.
 *
 * @example
 * // onCallReport saw { type: "progress", toolCallId: "c1", data: { mcpTask: { taskId: "t-42", ... } } }
 * await runToolCalls([mcpReattachCall(call, "t-42")], tools); // the task's result, not a second run
 */
export function mcpReattachCall(call: ToolCall, taskId: string): ToolCall {
  if (typeof call !== "object" || call === null || typeof call.id !== "string" || typeof call.name !== "string") {
    throw new TypeError(`Expected \`call\` to be a tool call, got ${describe(call)}`);
  }
  if (typeof taskId !== "string" || taskId === "") throw new TypeError(`Expected \`taskId\` to be a non-empty string, got ${describe(taskId)}`);
  return { ...call, metadata: { ...call.metadata, mcpTask: { taskId } } };
}
