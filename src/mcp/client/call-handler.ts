import type { McpInputRequest } from "../results/index.js";
import type { McpCallPlan, McpCallTarget } from "./call-plan.js";
import { toolCaller, type McpCallParams } from "../wire/index.js";
import { takeHeld } from "./held-calls.js";
import { McpCall } from "./mcp-call.js";
import { error, type HandlerContext, type HandlerResult, ToolError } from "../../index.js";
import { isPlainRecord } from "../../util/safe.js";

/**
 * The handler of an MCP tool: a `tools/call` to its server (see {@link McpCall}).
 *
 * - It forwards the arguments the model sent, not the schema's parsed output: a proxy has no
 *   business filling in defaults the remote schema left to its server. toolrx still validates
 *   them first, so invalid arguments never leave.
 * - A call whose `metadata.mcpInput.held` names a call held on a server's question answers it
 *   and goes on with that call; a call whose `metadata.mcpTask.taskId` names a task re-attaches
 *   to it (`tasks/get`, `tasks/result`) instead of calling the tool again; one whose
 *   `metadata.mcpInput.taskId` names a task of the tasks extension sends it the answers
 *   (`tasks/update`) and follows it.
 */
export function mcpHandler(
  target: McpCallTarget & Omit<McpCallPlan, "callTool" | keyof McpCallTarget>,
): (args: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerResult> {
  const plan: McpCallPlan = { ...target, callTool: toolCaller(target.client) };
  // Not an async function: the call's own promise is the handler's, without another wrapped around it.
  return (_args, ctx) => {
    try {
      return callOf(plan, ctx);
    } catch (e) {
      // What an async handler would do with it: the runner reads a rejection, not a throw.
      return Promise.reject(e);
    }
  };
}

function callOf(plan: McpCallPlan, ctx: HandlerContext): Promise<HandlerResult> {
  const { name, mcpName, server, outputSchema, maxResultChars } = plan;
  const sent = ctx.toolCall.arguments;
  const toolCallId = ctx.toolCall.id;
  const rc = { toolName: name, toolCallId, server, mcpName, arguments: sent, outputSchema, maxResultChars };
  const { metadata } = ctx.toolCall;
  const input = metadata?.mcpInput;
  if (isPlainRecord(input) && typeof input.held === "string") {
    const call = takeHeld<McpCall>(input.held);
    if (call !== undefined) return call.resume(input.inputResponses, ctx);
    const message = `The call to MCP tool ${mcpName} that waited for this answer is gone (it waited longer than elicitation.holdFor, or the process started again); call the tool again`;
    return Promise.resolve(error(new ToolError("handler_raised", { message, toolName: name, toolCallId })));
  }
  const task = metadata?.mcpTask;
  // An answer to a task's input requests (tasks extension) goes to that task, which is then followed.
  const answering = isPlainRecord(input) && typeof input.taskId === "string" && input.taskId !== "" && isPlainRecord(input.inputResponses);
  const reattach = answering
    ? (input.taskId as string)
    : isPlainRecord(task) && typeof task.taskId === "string" && task.taskId !== ""
      ? task.taskId
      : undefined;
  const update = answering ? (input.inputResponses as Record<string, unknown>) : undefined;
  const params = withInput({ name: mcpName, arguments: sent }, metadata);
  // Read now, in the handler's own context: inside toolrx/otel's runner that is the call's span.
  const traced = plan.trace?.inject();
  if (traced !== undefined) params._meta = traced;
  return new McpCall(plan, params, rc, reattach, update).run(ctx);
}

/** A retry of an `input_required` call carries the answers and the server's state (see `mcpRetryCall`). */
function withInput(params: McpCallParams, metadata: Record<string, unknown> | undefined): McpCallParams {
  const input = metadata?.mcpInput;
  if (!isPlainRecord(input)) return params;
  if (isPlainRecord(input.inputResponses)) params.inputResponses = input.inputResponses;
  if (typeof input.requestState === "string") params.requestState = input.requestState;
  return params;
}

export type { McpCallPlan, McpCallTarget, McpInputRequest };
