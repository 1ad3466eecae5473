import { type ResultContext, resultOf } from "./call-result.js";
import type { McpCallPlan } from "./call-plan.js";
import { isTerminal, readTask } from "./task-state.js";
import { readExtTask } from "./ext-task.js";
import { extTaskOutcome } from "./ext-task-follow.js";
import type { McpRequester } from "./task-requests.js";
import { error, type HandlerContext, type HandlerResult, reportFate, ToolError } from "../index.js";

/** How long toolrx waits for the server's word on a `tasks/cancel`, and on the result of a task that ended first. */
export const CANCEL_WAIT = 10_000;

/**
 * Cancel task `taskId` after its call was abandoned (a deadline, a cancel, a held question that
 * expired), and settle the call with what the server says became of the task: unlike a plain
 * call, a task can be asked. Confirmed cancelled: a `handler_raised` error saying so. Ended
 * first: its own result, which the runner reports as the call's late settlement. No answer: the
 * attempt's fate is `cancel_sent`, never a settlement the server did not confirm.
 */
export async function cancelTask(
  plan: McpCallPlan,
  taskId: string,
  rc: ResultContext,
  abortedBy: HandlerContext | undefined,
  ext?: Record<string, unknown>,
): Promise<HandlerResult> {
  const { request } = plan;
  const meta = (status: string) => ({ mcpTask: { server: rc.server, tool: rc.mcpName, taskId, status } });
  const fail = (message: string, status: string, cause?: unknown) =>
    error(new ToolError("handler_raised", { message, toolName: rc.toolName, toolCallId: rc.toolCallId, cause, metadata: meta(status) }));
  if (request === undefined) return fail(`MCP task ${taskId} was abandoned and could not be cancelled`, "unknown");
  if (ext !== undefined) return cancelExtTask(request, taskId, rc, abortedBy, ext, fail);
  let cancelError: unknown;
  try {
    const state = readTask(await request("tasks/cancel", { taskId }, { signal: AbortSignal.timeout(CANCEL_WAIT) }), taskId);
    if (typeof state !== "string" && state.status === "cancelled") {
      return fail(`MCP task ${taskId} of tool ${rc.mcpName} was cancelled; the server confirmed it`, "cancelled");
    }
  } catch (e) {
    // The usual reason: the task ended before the cancel arrived (a terminal task cannot be cancelled).
    cancelError = e;
  }
  try {
    const state = readTask(await request("tasks/get", { taskId }, { signal: AbortSignal.timeout(CANCEL_WAIT) }), taskId);
    if (typeof state !== "string" && state.status === "cancelled") {
      return fail(`MCP task ${taskId} of tool ${rc.mcpName} was cancelled; the server confirmed it`, "cancelled");
    }
    if (typeof state !== "string" && isTerminal(state.status)) {
      return resultOf(await request("tasks/result", { taskId }, { signal: AbortSignal.timeout(CANCEL_WAIT) }), rc);
    }
  } catch {
    // Nothing more can be learned; the fate below says what is known.
  }
  if (abortedBy !== undefined) reportFate(abortedBy, "cancel_sent");
  return fail(`MCP task ${taskId} of tool ${rc.mcpName} was abandoned; tasks/cancel was sent, unconfirmed`, "unknown", cancelError);
}

/**
 * The same for a task of the tasks extension (revision 2026-07-28): `tasks/cancel` is only an
 * acknowledgement, so the server's word is the `tasks/get` after it, whose ended task carries its
 * result or error inline.
 */
async function cancelExtTask(
  request: McpRequester,
  taskId: string,
  rc: ResultContext,
  abortedBy: HandlerContext | undefined,
  meta: Record<string, unknown>,
  fail: (message: string, status: string, cause?: unknown) => HandlerResult,
): Promise<HandlerResult> {
  const wait = () => ({ signal: AbortSignal.timeout(CANCEL_WAIT) });
  let cancelError: unknown;
  try {
    await request("tasks/cancel", { taskId, _meta: meta }, wait());
  } catch (e) {
    cancelError = e;
  }
  try {
    const state = readExtTask(await request("tasks/get", { taskId, _meta: meta }, wait()), taskId);
    if (typeof state !== "string" && state.status === "cancelled") {
      return fail(`MCP task ${taskId} of tool ${rc.mcpName} was cancelled; the server confirmed it`, "cancelled");
    }
    if (typeof state !== "string" && isTerminal(state.status)) {
      return extTaskOutcome(state, rc, new Set(), { mcpTask: { server: rc.server, tool: rc.mcpName, taskId, status: state.status } });
    }
  } catch {
    // Nothing more can be learned; the fate below says what is known.
  }
  if (abortedBy !== undefined) reportFate(abortedBy, "cancel_sent");
  return fail(`MCP task ${taskId} of tool ${rc.mcpName} was abandoned; tasks/cancel was sent, unconfirmed`, "unknown", cancelError);
}
