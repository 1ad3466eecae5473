import type { AssistantMessage, Message } from "../../tool/message.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { isPlainRecord } from "../../util/safe.js";
import type { OpenTurn } from "../conversation/index.js";

/** The key of a continuation call's `metadata` that carries the subagent's state to resume. */
export const SUBAGENT_RESUME = "toolrx.subagentResume";

/**
 * A subagent halted for the host, as its call's `askUser` opts carry it (`opts.subagent`): what
 * the host needs to answer it, and the subagent's conversation to resume.
 */
export interface SubagentState {
  /** The agent tool's name. */
  readonly tool: string;
  /** `ask_user`, `approval_required` or `manual_tool_calls`. */
  readonly haltedReason: string;
  /** The subagent's halt metadata (`pendingQuestion`, `pendingApprovals`, `manualToolCalls`…). */
  readonly metadata: Record<string, unknown>;
  /** The subagent's whole conversation when it halted. */
  readonly messages: readonly Message[];
  /** How many times this call was resumed before. */
  readonly round: number;
}

/** A subagent to resume before the model is asked: the continuation's assistant message and the call to run. */
export interface SubagentResume {
  /** Announces the continuation call, so that its tool message answers a call in the conversation. */
  readonly assistant: AssistantMessage;
  /** The call to run: the continuation, with the subagent's state in its metadata. */
  readonly call: ToolCall;
}

/**
 * Whether the conversation resumes a subagent: it ends with the question of a subagent's halt
 * (the loop's `askUser` question message, `askUserOpts.subagent`) and, after it, only what the
 * host appended for the subagent (user messages, approval decisions, tool messages of its manual
 * calls). The continuation is a new call to the same tool, `<original id>-resume<round>`, whose
 * handler gets the subagent's conversation with the host's messages appended.
 */
export function subagentResumeOf(messages: readonly Message[]): SubagentResume | undefined {
  let at = messages.length - 1;
  for (; at >= 0; at--) {
    const m = messages[at] as Message;
    if (m.role === "assistant") break;
  }
  if (at < 0 || at === messages.length - 1) return undefined;
  const question = messages[at] as AssistantMessage;
  const state = (question.metadata?.askUserOpts as { subagent?: unknown } | undefined)?.subagent;
  if (question.metadata?.askUser !== true || !isSubagentState(state)) return undefined;
  const origin = originalCall(messages, at, String(question.metadata.toolCallId));
  if (origin === undefined) return undefined;
  const appended = messages.slice(at + 1);
  const id = `${baseId(origin.id)}-resume${state.round + 1}`;
  const continuation: ToolCall = { id, name: origin.name, arguments: origin.arguments };
  const resumed: SubagentState = { ...state, messages: [...state.messages, ...appended] };
  return {
    assistant: { role: "assistant", content: "", toolCalls: [continuation], metadata: { subagentContinuation: origin.id } },
    call: { ...continuation, metadata: { ...origin.metadata, [SUBAGENT_RESUME]: resumed } },
  };
}

function isSubagentState(value: unknown): value is SubagentState {
  return isPlainRecord(value) && typeof value.tool === "string" && Array.isArray(value.messages) && typeof value.round === "number";
}

/** The call the question answers for, in the assistant messages before it. */
function originalCall(messages: readonly Message[], before: number, id: string): ToolCall | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role === "assistant") {
      const call = m.toolCalls?.find((c) => c.id === id);
      if (call !== undefined) return call;
    }
  }
  return undefined;
}

/** The id of the model's own call, without the `-resume<n>` of earlier continuations. */
function baseId(id: string): string {
  return id.replace(/-resume\d+$/, "");
}

/** A subagent's resume as the open turn of a continuation call the loop adds (at the conversation's end). */
export function continuationOf(messages: readonly Message[]): OpenTurn | undefined {
  const resume = subagentResumeOf(messages);
  if (resume === undefined) return undefined;
  return { at: messages.length, all: [resume.call], calls: [resume.call], answered: new Map(), decisions: [], questions: [], lead: resume.assistant };
}
