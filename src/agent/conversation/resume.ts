import type { ApprovalMessage, AssistantMessage, Message, ToolMessage } from "../../tool/message.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { ToolCall } from "../../tool/tool-call.js";

/** A host's decision, and where it is in the conversation. */
export interface Decision {
  readonly message: ApprovalMessage;
  readonly at: number;
}

/**
 * What the last model turn of a conversation left open. Only that turn counts: calls of earlier
 * turns are answered (the structure check makes sure of it).
 */
export interface OpenTurn {
  /** The index of the turn's assistant message; -1 when no turn made tool calls. */
  readonly at: number;
  /** Every call of the turn, in the model's order. */
  readonly all: readonly ToolCall[];
  /** The calls nothing answers yet, in the model's order. */
  readonly calls: readonly ToolCall[];
  /** Call id → index of its answer. */
  readonly answered: ReadonlyMap<string, number>;
  /** Decisions after the turn, in order. */
  readonly decisions: readonly Decision[];
  /** Questions the turn asked that no user message after them answers yet. */
  readonly questions: readonly PendingQuestion[];
  /** The turn's assistant message when the loop made it for this run (a subagent's continuation): the turn adds it. */
  readonly lead?: AssistantMessage;
}

/**
 * Read what a resumed run must settle before it asks the model again, or `undefined` when
 * nothing is open. One rule for every kind of pending work: the model is asked again only once
 * every question has a user message after it, every manual call a tool message, and every call
 * awaiting approval a decision.
 */
export function openTurnOf(messages: readonly Message[]): OpenTurn | undefined {
  const at = lastTurnAt(messages);
  const all = at < 0 ? [] : ((messages[at] as AssistantMessage).toolCalls ?? []);
  const answered = new Map<string, number>();
  const decisions: Decision[] = [];
  const questions: PendingQuestion[] = [];
  for (let j = at + 1; j < messages.length; j++) {
    const m = messages[j] as Message;
    if (m.role === "tool") answered.set(m.toolCallId, j);
    else if (m.role === "approval") decisions.push({ message: m, at: j });
    else if (m.role === "user")
      questions.length = 0; // the user's words answer every question before them
    else if (m.role === "assistant") questions.push(...questionsOf(m));
  }
  const calls = all.filter((call) => !answered.has(call.id));
  if (calls.length === 0 && decisions.length === 0 && questions.length === 0) return undefined;
  return { at: all.length === 0 ? -1 : at, all, calls, answered, decisions, questions };
}

/** The index of the conversation's last model turn (not a question the loop appended); -1 when none. */
export function lastTurnAt(messages: readonly Message[]): number {
  let at = messages.length - 1;
  for (; at >= 0; at--) {
    const m = messages[at] as Message;
    if (m.role === "assistant" && m.metadata?.askUser !== true) break;
  }
  return at;
}

/** The questions a question message the loop appended carries. */
function questionsOf(m: AssistantMessage): PendingQuestion[] {
  const many = m.metadata?.questions;
  if (Array.isArray(many)) return many as PendingQuestion[];
  const opts = m.metadata?.askUserOpts;
  return [{ toolCallId: String(m.metadata?.toolCallId), question: m.content, opts: typeof opts === "object" && opts !== null ? opts : {} }];
}

/**
 * The conversation with every answer to the turn at `at` right after it, in the model's order,
 * and the rest (questions, the user's words, decisions) after them: OpenAI wants each tool
 * message right after its assistant message, Anthropic every `tool_result` in the next user
 * message. A host that appends a manual result after the user's message gets it put in place.
 */
export function withAnswersInPlace(messages: readonly Message[], at: number): Message[] {
  if (at < 0) return messages.slice();
  const answers = new Map<string, ToolMessage>();
  const rest: Message[] = [];
  for (let j = at + 1; j < messages.length; j++) {
    const m = messages[j] as Message;
    if (m.role === "tool") answers.set(m.toolCallId, m);
    else rest.push(m);
  }
  const placed = messages.slice(0, at + 1);
  for (const call of (messages[at] as AssistantMessage).toolCalls ?? []) {
    const answer = answers.get(call.id);
    if (answer !== undefined) placed.push(answer);
  }
  placed.push(...rest);
  return placed;
}

/** The message that puts a turn's questions to the user: one assistant message, whatever their number. */
export function questionMessage(questions: readonly PendingQuestion[]): AssistantMessage {
  const first = questions[0] as PendingQuestion;
  if (questions.length === 1) {
    const metadata: Record<string, unknown> = { askUser: true, toolCallId: first.toolCallId };
    if (Object.keys(first.opts).length > 0) metadata.askUserOpts = first.opts;
    return { role: "assistant", content: first.question, metadata };
  }
  return {
    role: "assistant",
    content: questions.map((q) => q.question).join("\n\n"),
    metadata: { askUser: true, toolCallId: first.toolCallId, questions },
  };
}
