import { rejectedResult, resultOf } from "./call-result.js";
import { isConnectionLost, SDK_TIMEOUT_OFF, toolCaller, type McpCallParams, type McpClientLike } from "./client-like.js";
import { reportProgress } from "./progress.js";
import type { CompiledSchema } from "../internal.js";
import { error, type HandlerContext, type HandlerResult, reportFate, ToolError } from "../index.js";
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

/**
 * The handler of an MCP tool: a `tools/call` to its server.
 *
 * - It forwards the arguments the model sent, not the schema's parsed output: a proxy has no
 *   business filling in defaults the remote schema left to its server. toolrx still validates
 *   them first, so invalid arguments never leave.
 * - It passes `ctx.signal`, so a deadline or a cancel sends `notifications/cancelled`. MCP has no
 *   answer to a cancel, and the SDK drops the server's late answer, so what toolrx knows is that
 *   it asked: the call's `late_settlement` report says `fate: "cancel_sent"`, never a settlement
 *   the server did not confirm.
 */
export function mcpHandler(target: McpCallTarget): (args: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerResult> {
  const { client, server, name, mcpName, outputSchema, maxResultChars } = target;
  const callTool = toolCaller(client);
  return async (_args, ctx) => {
    const sent = ctx.toolCall.arguments;
    const toolCallId = ctx.toolCall.id;
    const rc = { toolName: name, toolCallId, server, mcpName, arguments: sent, outputSchema, maxResultChars };
    const { signal } = ctx;
    // A signal aborted before the request went out sent no cancel: there is no fate to tell.
    const requested = !signal.aborted;
    let result: unknown;
    try {
      result = await callTool(withInput({ name: mcpName, arguments: sent }, ctx.toolCall.metadata), {
        signal,
        timeout: SDK_TIMEOUT_OFF,
        onprogress: (p) => reportProgress(ctx, p),
        resetTimeoutOnProgress: true,
      });
    } catch (cause) {
      // Both SDKs reject at once on abort, after sending the cancel; the runner still waits for
      // this handler's word on the attempt it abandoned, so the fate is told before it settles.
      if (requested && signal.aborted) reportFate(ctx, "cancel_sent");
      if (isConnectionLost(cause, client)) {
        const message = `MCP server ${server === "" ? "" : `"${server}" `}went away during tool ${mcpName}`;
        return error(new ToolError("handler_exit", { message, toolName: name, toolCallId, cause }));
      }
      const rejected = rejectedResult(cause, rc);
      if (rejected !== undefined) return rejected;
      // An aborted call is already answered by toolrx (timeout or cancel); this is never seen.
      throw cause;
    }
    return resultOf(result, rc);
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
