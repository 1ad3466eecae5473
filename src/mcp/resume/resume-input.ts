import type { McpInputRequest } from "../results/index.js";
import { mcpRetryCall } from "./retry-call.js";
import {
  type AgentResult,
  type AskUserHalt,
  type HaltMetadata,
  type Message,
  type PendingQuestion,
  type RunOptions,
  runToolCalls,
  type Tool,
} from "../../index.js";
import { isPlainRecord } from "../../util/safe.js";

/** What {@link resumeMcpInput} gives back. */
export interface McpInputResumed {
  /** The conversation with the pending call answered: pass it to the agent loop again. */
  readonly messages: readonly Message[];
  /** Set when the server asked again (another `input_required`): ask the user, then resume again. */
  readonly halt?: HaltMetadata;
  /**
   * Set when the server asked again: the run, halted with `ask_user` on the server's new question
   * (its new `inputRequests` and `requestState` in `askUserOpts.mcp`), over `messages`. Ask the
   * user and pass it to `resumeMcpInput` once more; resuming from the earlier result would
   * replay the earlier round.
   */
  readonly halted?: AgentResult;
}

/**
 * Resume an agent run that halted on an MCP server's `input_required` (an `ask_user` whose
 * `askUserOpts.mcp` is an {@link McpInputRequest}): the call is retried with the user's answers
 * under its own id, and its tool message ("awaiting user response") is replaced by the answer,
 * the loop's question dropped. The conversation stays valid for a provider (one tool message per
 * call), and the model's next turn reads the tool's real result. Stateless, like the loop. When
 * the server asks again, `halted` is the run halted on the new question: resume that, round after
 * round, until it is absent.
 *
 * @throws {TypeError} when `result` is not an `ask_user` halt from an MCP tool.
 *
 * @example
 * let result = await runAgent({ model, tools, messages });
 * while (result.haltedReason === "ask_user") {
 *   const resumed = await resumeMcpInput(result, await askTheUser(result.metadata.pendingQuestion), tools);
 *   result = resumed.halted ?? (await runAgent({ model, tools, messages: resumed.messages }));
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
  const answer = run.messages[0];
  // Every call of a finished batch answers one message; a run without it is a bug in the runner.
  if (answer === undefined) throw new Error("The retried MCP call finished without a tool message");
  const asked = run.halt?.haltedReason === "ask_user" ? (run.halt as AskUserHalt) : undefined;
  const next: Message[] = [];
  for (const m of messages) {
    if (m.role === "tool" && m.toolCallId === id) next.push(answer);
    else if (m.role === "assistant" && m.metadata?.askUser === true && m.metadata.toolCallId === id) {
      // The loop's question stays only while the server is still asking, with its new wording.
      if (asked !== undefined) next.push({ ...m, content: asked.pendingQuestion });
    } else next.push(m);
  }
  if (asked === undefined) return run.halt === undefined ? { messages: next } : { messages: next, halt: run.halt };
  return { messages: next, halt: asked, halted: askedAgain(result, asked, next) };
}

/**
 * The run as it stands once the server asked again: halted with `ask_user` on the new question,
 * the rest of its pending work (other questions, approvals, manual calls of that turn) kept.
 */
function askedAgain(result: AgentResult, asked: AskUserHalt, messages: readonly Message[]): AgentResult {
  const { pendingQuestion, pendingToolCallId, askUserOpts } = asked;
  const before = result.metadata as Record<string, unknown>;
  const others = Array.isArray(before.pendingQuestions) ? (before.pendingQuestions as readonly PendingQuestion[]) : [];
  const question: PendingQuestion = { toolCallId: pendingToolCallId, question: pendingQuestion, opts: askUserOpts };
  const pendingQuestions = others.some((q) => q.toolCallId === pendingToolCallId)
    ? others.map((q) => (q.toolCallId === pendingToolCallId ? question : q))
    : [question, ...others];
  const metadata = { ...before, pendingQuestion, pendingToolCallId, askUserOpts, pendingQuestions };
  return { haltedReason: "ask_user", metadata, messages } as AgentResult;
}
