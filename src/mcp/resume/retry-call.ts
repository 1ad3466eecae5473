import type { McpInputRequest } from "../results/index.js";
import type { ToolCall } from "../../index.js";
import { describe } from "../../util/safe.js";

/**
 * The call that answers an MCP server's `input_required` (protocol revision 2026-07-28): the
 * same tool and arguments, with the user's answers keyed as the server's `inputRequests` were,
 * and the server's `requestState` echoed back. Run it like any call; the server continues where
 * it stopped.
 *
 * @example
 * const { halt } = await runToolCalls([call], tools); // halt.haltedReason === "ask_user"
 * const input = (halt.askUserOpts as { mcp: McpInputRequest }).mcp;
 * const retry = mcpRetryCall(input, { when: { action: "accept", content: { date: "2026-12-01" } } }, "c1-retry");
 * await runToolCalls([retry], tools); // the server sees the answers and its own state
 */
export function mcpRetryCall(input: McpInputRequest, inputResponses: Record<string, unknown>, id: string): ToolCall {
  if (typeof input !== "object" || input === null || typeof input.toolName !== "string") {
    throw new TypeError(`Expected \`input\` to be the \`opts.mcp\` of an MCP ask_user, got ${describe(input)}`);
  }
  if (typeof inputResponses !== "object" || inputResponses === null || Array.isArray(inputResponses)) {
    throw new TypeError(`Expected \`inputResponses\` to be an object keyed like the server's inputRequests, got ${describe(inputResponses)}`);
  }
  if (typeof id !== "string" || id === "") throw new TypeError(`Expected \`id\` to be a non-empty string, got ${describe(id)}`);
  const mcpInput: Record<string, unknown> = { inputResponses };
  if (input.requestState !== undefined) mcpInput.requestState = input.requestState;
  // A call held on a server's question is answered in place, not sent again.
  if (typeof input.held === "string") mcpInput.held = input.held;
  // A task of the tasks extension (2026-07-28) waits on its server: the answer goes to it with tasks/update.
  else if (typeof input.taskId === "string") mcpInput.taskId = input.taskId;
  return { id, name: input.toolName, arguments: { ...input.arguments }, metadata: { mcpInput } };
}
