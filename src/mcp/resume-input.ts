import type { AgentResult } from "../agent/types.js";
import type { Message } from "../tool/message.js";
import { runToolCalls } from "../run/batch.js";
import type { RunOptions } from "../run/run-options.js";
import type { HaltMetadata } from "../run/run-result.js";
import type { Tool } from "../tool/tool.js";
import { isPlainRecord } from "../tool/tool-call.js";
import type { McpInputRequest } from "./call-result.js";
import { mcpRetryCall } from "./retry-call.js";

/** What {@link resumeMcpInput} gives back. */
export interface McpInputResumed {
  /** The conversation with the pending call answered: pass it to the agent loop again. */
  readonly messages: readonly Message[];
  /** Set when the server asked again (another `input_required`): ask the user, then resume again. */
  readonly halt?: HaltMetadata;
}

/**
 * Resume an agent run that halted on an MCP server's `input_required` (an `ask_user` whose
 * `askUserOpts.mcp` is an {@link McpInputRequest}): the call is retried with the user's answers
 * under its own id, and its tool message ("awaiting user response") is replaced by the answer,
 * the loop's question dropped. The conversation stays valid for a provider (one tool message per
 * call), and the model's next turn reads the tool's real result. Stateless, like the loop.
 *
 * @throws {TypeError} when `result` is not an `ask_user` halt from an MCP tool.
 *
 * @example
 * let result = await runAgent({ model, tools, messages });
 * if (result.haltedReason === "ask_user") {
 *   const { messages } = await resumeMcpInput(result, { when: { action: "accept", content: { date: "2026-12-01" } } }, tools);
 *   result = await runAgent({ model, tools, messages });
 * }
 */
export async function resumeMcpInput(
  result: AgentResult,
  inputResponses: Record<string, unknown>,
  tools: readonly Tool[],
  options?: RunOptions,
): Promise<McpInputResumed> {
  const { haltedReason, metadata, messages } = (result ?? {}) as { haltedReason?: unknown; metadata?: Record<string, unknown>; messages?: unknown };
  const opts = isPlainRecord(metadata) && isPlainRecord(metadata.askUserOpts) ? metadata.askUserOpts : undefined;
  const input = opts?.mcp as McpInputRequest | undefined;
  const id = metadata?.pendingToolCallId;
  if (haltedReason !== "ask_user" || typeof id !== "string" || !isPlainRecord(input) || !Array.isArray(messages)) {
    throw new TypeError("Expected `result` to be an agent run that halted with ask_user on an MCP tool's input_required");
  }
  const run = await runToolCalls([mcpRetryCall(input, inputResponses, id)], tools, options);
  const answer = run.messages[0]!;
  const asked = run.halt?.haltedReason === "ask_user" ? run.halt : undefined;
  const next: Message[] = [];
  for (const m of messages) {
    if (m.role === "tool" && m.toolCallId === id) next.push(answer);
    else if (m.role === "assistant" && m.metadata?.askUser === true && m.metadata.toolCallId === id) {
      // The loop's question stays only while the server is still asking, with its new wording.
      if (asked !== undefined) next.push({ ...m, content: asked.pendingQuestion });
    } else next.push(m);
  }
  return run.halt === undefined ? { messages: next } : { messages: next, halt: run.halt };
}
