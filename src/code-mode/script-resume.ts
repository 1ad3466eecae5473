import type { ApprovalMessage, Message, SubagentState } from "../index.js";
import { SUBAGENT_RESUME } from "../internal.js";
import { isPlainRecord } from "../util/safe.js";
import type { NestedAnswer, ScriptRecord } from "./replay-record.js";
import type { NestedContinuation } from "./script-end.js";

/** A halted script's resume, from what the host appended after the halt. */
export interface ScriptResume {
  /** The halt's record, the asking call answered when the user's answer is its value. */
  readonly record: ScriptRecord;
  /** The decisions on the record's own pending calls, for the nested runner. */
  readonly approvals: readonly ApprovalMessage[];
  /** The asking call, when it was a subagent that halted: run again as that subagent's continuation. */
  readonly continuation: NestedContinuation | undefined;
}

/**
 * Read the host's messages for a halted script (`state.messages`: what it appended after the
 * halt's question). Approval decisions for the script's own calls go to the nested runner. The
 * call that asked gets the user's last message as its value, as a plain tool's question is
 * answered in a turn; or, when it was itself a subagent (its question carried `opts.subagent`, as
 * an `agentTool` or a nested code mode asks), it runs again as that subagent's continuation with
 * the host's other messages appended to its conversation, as the loop resumes a subagent.
 */
export function scriptResumeOf(state: SubagentState, record: ScriptRecord): ScriptResume {
  const ours = new Set(record.calls.filter((c) => c.answer === undefined && c.asked !== true).map((c) => `${record.baseId}.${c.seq}`));
  const isOurs = (m: Message): m is ApprovalMessage => m.role === "approval" && ours.has(m.toolCallId);
  const approvals = state.messages.filter(isOurs);
  const asked = record.calls.find((c) => c.asked === true && c.answer === undefined);
  if (asked === undefined) return { record, approvals, continuation: undefined };
  const nested = subagentOf(state.metadata.askUserOpts);
  if (nested !== undefined) {
    const resumed: SubagentState = { ...nested, messages: [...nested.messages, ...state.messages.filter((m) => !isOurs(m))] };
    return { record, approvals, continuation: { seq: asked.seq, metadata: { [SUBAGENT_RESUME]: resumed } } };
  }
  const reply = [...state.messages].reverse().find((m) => m.role === "user");
  // No answer from the user: the call runs again on replay, and asks again.
  if (reply?.role !== "user") return { record, approvals, continuation: undefined };
  const answer: NestedAnswer = { ok: true, text: JSON.stringify(reply.content) };
  return { record: { ...record, calls: record.calls.map((c) => (c === asked ? { ...c, answer } : c)) }, approvals, continuation: undefined };
}

/** The subagent state a nested question carried, read back from a conversation the host may have written anything into. */
function subagentOf(opts: unknown): SubagentState | undefined {
  const state = isPlainRecord(opts) ? opts.subagent : undefined;
  if (!isPlainRecord(state)) return undefined;
  const valid = typeof state.tool === "string" && isPlainRecord(state.metadata) && Array.isArray(state.messages) && typeof state.round === "number";
  return valid ? (state as unknown as SubagentState) : undefined;
}
