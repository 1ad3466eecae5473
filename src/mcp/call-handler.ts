import type { McpInputRequest } from "./call-result.js";
import { toolCaller, type McpCallParams, type McpClientLike, type McpRequestOptions } from "./client-like.js";
import type { ElicitationRouter } from "./elicitation-router.js";
import { takeHeld } from "./held-calls.js";
import { McpCall } from "./mcp-call.js";
import type { McpRequester } from "./task-requests.js";
import type { CompiledSchema } from "../internal.js";
import { error, type HandlerContext, type HandlerResult, ToolError } from "../index.js";
import { isPlainRecord } from "../util/safe.js";

/** Which remote tool a handler calls, and how its answers are read. */
export interface McpCallTarget {
  readonly client: McpClientLike;
  /** The server's key, or `""` for a single unnamed server. */
  readonly server: string;
  /** The model-facing tool name. */
  readonly name: string;
  /** The tool's name on the server. */
  readonly mcpName: string;
  readonly outputSchema: CompiledSchema | undefined;
  readonly maxResultChars: number;
}

/** A target with how to call it: plainly or as a task, and what to do with a server's question. */
export interface McpCallPlan extends McpCallTarget {
  readonly callTool: (params: McpCallParams, options: McpRequestOptions) => Promise<unknown>;
  /** Any request; `undefined` for a client without `request()` (no tasks then). */
  readonly request: McpRequester | undefined;
  /** Call it as a task (revision 2025-11-25). */
  readonly asTask: boolean;
  readonly taskTtl: number | undefined;
  readonly maxPollInterval: number;
  /** Set with `McpToolsOptions.elicitation`: where the server's questions are routed. */
  readonly router: ElicitationRouter | undefined;
  /** How long a call held on a question waits for the host, in ms. */
  readonly holdFor: number;
}

/**
 * The handler of an MCP tool: a `tools/call` to its server (see {@link McpCall}).
 *
 * - It forwards the arguments the model sent, not the schema's parsed output: a proxy has no
 *   business filling in defaults the remote schema left to its server. toolrx still validates
 *   them first, so invalid arguments never leave.
 * - A call whose `metadata.mcpInput.held` names a call held on a server's question answers it
 *   and goes on with that call; a call whose `metadata.mcpTask.taskId` names a task re-attaches
 *   to it (`tasks/get`, `tasks/result`) instead of calling the tool again.
 */
export function mcpHandler(
  target: McpCallTarget & Omit<McpCallPlan, "callTool" | keyof McpCallTarget>,
): (args: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerResult> {
  const plan: McpCallPlan = { ...target, callTool: toolCaller(target.client) };
  const { name, mcpName, server, outputSchema, maxResultChars } = plan;
  return async (_args, ctx) => {
    const sent = ctx.toolCall.arguments;
    const toolCallId = ctx.toolCall.id;
    const rc = { toolName: name, toolCallId, server, mcpName, arguments: sent, outputSchema, maxResultChars };
    const { metadata } = ctx.toolCall;
    const input = metadata?.mcpInput;
    if (isPlainRecord(input) && typeof input.held === "string") {
      const call = takeHeld<McpCall>(input.held);
      if (call !== undefined) return call.resume(input.inputResponses, ctx);
      const message = `The call to MCP tool ${mcpName} that waited for this answer is gone (it waited longer than elicitation.holdFor, or the process started again); call the tool again`;
      return error(new ToolError("handler_raised", { message, toolName: name, toolCallId }));
    }
    const task = metadata?.mcpTask;
    const reattach = isPlainRecord(task) && typeof task.taskId === "string" && task.taskId !== "" ? task.taskId : undefined;
    return new McpCall(plan, withInput({ name: mcpName, arguments: sent }, metadata), rc, reattach).run(ctx);
  };
}

/** A retry of an `input_required` call carries the answers and the server's state (see `mcpRetryCall`). */
function withInput(params: McpCallParams, metadata: Record<string, unknown> | undefined): McpCallParams {
  const input = metadata?.mcpInput;
  if (!isPlainRecord(input)) return params;
  if (isPlainRecord(input.inputResponses)) params.inputResponses = input.inputResponses;
  if (typeof input.requestState === "string") params.requestState = input.requestState;
  return params;
}

export type { McpInputRequest };
