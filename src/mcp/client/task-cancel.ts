import { type ResultContext, resultOf } from "../results/index.js";
import type { McpCallPlan } from "./call-plan.js";
import { isTerminal, readTask, readExtTask, extTaskOutcome } from "../tasks/index.js";
import { error, type HandlerContext, type HandlerResult, reportFate, ToolError } from "../../index.js";

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
  const confirmed = () => fail(`MCP task ${taskId} of tool ${rc.mcpName} was cancelled; the server confirmed it`, "cancelled");
  if (request === undefined) return fail(`MCP task ${taskId} was abandoned and could not be cancelled`, "unknown");
  const wait = () => ({ signal: AbortSignal.timeout(CANCEL_WAIT) });
  // The tasks extension (2026-07-28) opts each request in through its `_meta`, and its cancel is
  // only an acknowledgement: the server's word is the tasks/get after it, its result inline.
  const params = ext === undefined ? { taskId } : { taskId, _meta: ext };
  let cancelError: unknown;
  try {
    const state = readTask(await request("tasks/cancel", params, wait()), taskId);
    if (ext === undefined && typeof state !== "string" && state.status === "cancelled") return confirmed();
  } catch (e) {
    // The usual reason: the task ended before the cancel arrived (a terminal task cannot be cancelled).
    cancelError = e;
  }
  try {
    const answer = await request("tasks/get", params, wait());
    const state = ext === undefined ? readTask(answer, taskId) : readExtTask(answer, taskId);
    if (typeof state !== "string" && state.status === "cancelled") return confirmed();
    if (typeof state !== "string" && isTerminal(state.status)) {
      if (ext !== undefined) return extTaskOutcome(state, rc, new Set(), meta(state.status));
      return resultOf(await request("tasks/result", params, wait()), rc);
    }
  } catch {
    // Nothing more can be learned; the fate below says what is known.
  }
  if (abortedBy !== undefined) reportFate(abortedBy, "cancel_sent");
  return fail(`MCP task ${taskId} of tool ${rc.mcpName} was abandoned; tasks/cancel was sent, unconfirmed`, "unknown", cancelError);
}
