import type { ToolCall } from "../tool/tool-call.js";
import type { ApprovalMessage, Message } from "../tool/message.js";

/** What the conversation left open: the last model turn's unanswered calls, and the host's decisions on them. */
export interface Pending {
  /** Unanswered calls of the last model turn, in the model's order. */
  readonly calls: readonly ToolCall[];
  /** Decisions appended after that turn, by call id; the last decision on a call wins. */
  readonly decisions: ReadonlyMap<string, ApprovalMessage>;
}

/**
 * Read what a resumed run must settle before it asks the model again. Only the last model turn
 * counts: a call is pending when nothing after that turn answers it, and a decision counts only
 * when it names such a call and comes after it, so an old or stray approval runs nothing.
 * Questions the loop appended (`metadata.askUser`), the user's answers, tool messages and
 * decisions may follow the turn; any other assistant message means nothing is pending.
 */
export function pendingOf(messages: readonly Message[]): Pending | undefined {
  let i = messages.length - 1;
  for (; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role !== "assistant") continue;
    if (m.metadata?.askUser === true) continue;
    if (m.toolCalls === undefined || m.toolCalls.length === 0) return undefined;
    break;
  }
  if (i < 0) return undefined;
  const turn = messages[i] as Message & { role: "assistant" };
  const answered = new Set<string>();
  const decisions = new Map<string, ApprovalMessage>();
  for (let j = i + 1; j < messages.length; j++) {
    const m = messages[j] as Message;
    if (m.role === "tool") answered.add(m.toolCallId);
    else if (m.role === "approval") decisions.set(m.toolCallId, m);
  }
  const calls = (turn.toolCalls as readonly ToolCall[]).filter((call) => !answered.has(call.id));
  if (calls.length === 0) return undefined;
  for (const id of decisions.keys()) if (!calls.some((call) => call.id === id)) decisions.delete(id);
  return { calls, decisions };
}
