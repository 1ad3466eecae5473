import type { UIMessage } from "ai";
import {
  AWAITING_USER_RESPONSE,
  type ApprovalMessage,
  type ContentPart,
  type Message,
  type PendingQuestion,
  type ReasoningPart,
  type ToolCall,
  type ToolMessage,
} from "../index.js";
import { deniedText } from "../internal.js";
import { contentOf } from "./tool-output.js";
import { isToolPart, toolNameOf, type Part, type ToolPart } from "./tool-parts.js";
import { REASONING_METADATA_KEY } from "./model-parts.js";

/**
 * The conversation `useChat`'s messages stand for, to run `streamAgent` on: what the client
 * posts (`UIMessage`s with text, files, tool parts, approvals and answers) as toolrx messages.
 *
 * - Each step of an assistant message is a model turn: its text, its calls (a part's `input` as
 *   the arguments), then one tool message per call with an output or an error, in the calls'
 *   order. A call still streaming its input was cut off and is left out, as the loop leaves out
 *   a turn that did not complete.
 * - A call that asked the user (an `ask-user` data part) keeps its `"<awaiting user response>"`
 *   answer and its question; an output the page gave it (`addToolOutput`) is the user's answer.
 * - A decision the page made (`addToolApprovalResponse`) is an approval message, carrying the
 *   `signature` the server sent as its `token`. A call it denied (`output-denied`) is answered
 *   with the denial the loop wrote (`"The user denied this call to <tool>: <reason>"`, as
 *   the default encoder writes an error): the model sees the denial on every later request. The token is checked by the loop, not here: run
 *   with `approvalSecret` (and `approvalLedger`), and a decision the client forged or edited
 *   fails closed before anything runs. Without a secret, decisions are trusted as written.
 * - A manual call's output (`addToolOutput`) is its tool message.
 *
 * - A step's reasoning parts are its turn's reasoning, with the provider state
 *   {@link toUIMessageChunks} put in their `providerMetadata.toolrx` (that provider checks its
 *   own state when the turn is sent back); a reasoning part without it is text alone, which no
 *   provider takes back.
 *
 * Sources and other data parts are the page's own and are left out.
 *
 * @throws {TypeError} when `messages` is not an array of UI messages.
 *
 * @example
 * const { messages } = await req.json();
 * const options = { model, tools, approvalSecret, messages: fromUIMessages(messages) };
 */
export function fromUIMessages(messages: readonly UIMessage[]): Message[] {
  if (!Array.isArray(messages)) throw new TypeError(`Expected \`messages\` of \`fromUIMessages\` to be an array of UI messages, got ${typeof messages}`);
  const out: Message[] = [];
  // A call put up again on a later message (to be answered there) keeps its place; its latest part says where it stands.
  const latest = new Map<string, ToolPart>();
  messages.forEach((m, i) => {
    if (m === null || typeof m !== "object" || !Array.isArray(m.parts))
      throw new TypeError(`Expected \`messages[${i}]\` of \`fromUIMessages\` to be a UI message with \`parts\``);
    for (const p of m.parts) if (isToolPart(p)) latest.set(p.toolCallId, p);
  });
  const placed = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === "assistant") out.push(...assistantTurns(m.parts, latest, placed));
    else if (m.role === "user" || m.role === "system") out.push(textMessage(m.role, m.parts));
    else throw new TypeError(`Expected \`messages[${i}].role\` of \`fromUIMessages\` to be "system", "user" or "assistant", got ${String(m.role)}`);
  });
  return out;
}

function textMessage(role: "user" | "system", parts: readonly Part[]): Message {
  const content = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n\n");
  const files = role === "user" ? parts.flatMap((p): ContentPart[] => (p.type === "file" ? [filePart(p.url, p.mediaType, p.filename)] : [])) : [];
  return files.length === 0 ? { role, content } : { role, content, parts: files };
}

function filePart(url: string, mediaType: string, name: string | undefined): ContentPart {
  if (mediaType.startsWith("image/")) return { type: "image", url, mediaType };
  return name === undefined ? { type: "file", url, mediaType } : { type: "file", url, mediaType, name };
}

/** The turns of one assistant message: one per step (`step-start`), each with what answers it. */
function assistantTurns(parts: readonly Part[], latest: ReadonlyMap<string, ToolPart>, placed: Set<string>): Message[] {
  const questions = new Map<string, PendingQuestion>();
  for (const p of parts) {
    if (p.type === "data-ask-user") {
      const data = p.data as { toolCallId?: unknown; question?: unknown; opts?: unknown };
      if (typeof data?.toolCallId === "string" && typeof data.question === "string") {
        questions.set(data.toolCallId, { toolCallId: data.toolCallId, question: data.question, opts: isObject(data.opts) ? data.opts : {} });
      }
    }
  }
  const out: Message[] = [];
  let step: Part[] = [];
  for (const p of parts) {
    if (p.type === "step-start") {
      out.push(...turnOf(step, questions));
      step = [];
    } else if (!isToolPart(p)) step.push(p);
    else if (!placed.has(p.toolCallId)) {
      placed.add(p.toolCallId);
      step.push(latest.get(p.toolCallId) as Part);
    }
  }
  out.push(...turnOf(step, questions));
  return out;
}

function turnOf(parts: readonly Part[], questions: ReadonlyMap<string, PendingQuestion>): Message[] {
  const content = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  const tools = parts.filter(isToolPart).filter((p) => p.state !== "input-streaming" && p.providerExecuted !== true);
  const reasoning = parts.flatMap((p) => (p.type === "reasoning" && p.state !== "streaming" ? [reasoningOf(p.text, p.providerMetadata)] : []));
  if (content === "" && tools.length === 0 && reasoning.length === 0) return [];
  const said: Message = reasoning.length === 0 ? { role: "assistant", content } : { role: "assistant", content, reasoning };
  if (tools.length === 0) return [said];
  const toolCalls = tools.map(
    (p): ToolCall => ({ id: p.toolCallId, name: toolNameOf(p), arguments: isObject(p.input) ? (p.input as Record<string, unknown>) : {} }),
  );
  const answers: ToolMessage[] = [];
  const asked: PendingQuestion[] = [];
  const decisions: ApprovalMessage[] = [];
  const replies: string[] = [];
  for (const [i, p] of tools.entries()) {
    const name = (toolCalls[i] as ToolCall).name;
    const question = questions.get(p.toolCallId);
    if (question !== undefined) {
      answers.push({ role: "tool", toolCallId: p.toolCallId, name, content: AWAITING_USER_RESPONSE, isError: false });
      asked.push(question);
      if (p.state === "output-available") replies.push(contentOf(p.output));
    } else if (p.state === "output-available") answers.push({ role: "tool", toolCallId: p.toolCallId, name, content: contentOf(p.output), isError: false });
    else if (p.state === "output-error") answers.push({ role: "tool", toolCallId: p.toolCallId, name, content: String(p.errorText ?? ""), isError: true });
    else if (p.state === "output-denied") answers.push(deniedAnswer(toolCalls[i] as ToolCall, p.approval?.reason));
    else if (p.state === "approval-responded" && p.approval !== undefined) decisions.push(decisionOf(p.toolCallId, p.approval));
  }
  const turn: Message[] = [{ ...said, toolCalls }, ...answers];
  if (asked.length > 0) turn.push(questionMessage(asked));
  turn.push(...decisions);
  if (replies.length > 0) turn.push({ role: "user", content: replies.join("\n\n") });
  return turn;
}

/** A reasoning part as the conversation keeps it: its text, and the provider state it carried to the page and back. */
function reasoningOf(text: string, metadata: unknown): ReasoningPart {
  const state = isObject(metadata) ? (metadata as Record<string, unknown>)[REASONING_METADATA_KEY] : undefined;
  if (!isObject(state)) return { text };
  const { provider, data } = state as { provider?: unknown; data?: unknown };
  if (typeof provider !== "string") return { text };
  return isObject(data) ? { text, provider, data: data as Record<string, unknown> } : { text, provider };
}

/**
 * A denied call's tool message as the loop wrote it (the protocol's `output-denied` keeps no
 * text): the denial and its reason, as the default encoder writes an error (`{"error":…}`; not
 * through `jsonEncoder` itself, which would add its trace handling to this subpath's bundle).
 */
function deniedAnswer(call: ToolCall, reason: unknown): ToolMessage {
  const text = deniedText(call, typeof reason === "string" ? reason : undefined);
  return { role: "tool", toolCallId: call.id, name: call.name, content: JSON.stringify({ error: text }), isError: true };
}

function decisionOf(toolCallId: string, approval: NonNullable<ToolPart["approval"]>): ApprovalMessage {
  const decision: { -readonly [K in keyof ApprovalMessage]: ApprovalMessage[K] } = { role: "approval", toolCallId, approved: approval.approved === true };
  if (approval.reason !== undefined && !decision.approved) decision.reason = approval.reason;
  if (typeof approval.signature === "string") decision.token = approval.signature;
  return decision;
}

/** The message that put a turn's questions to the user, as the loop writes it. */
function questionMessage(questions: readonly PendingQuestion[]): Message {
  const first = questions[0] as PendingQuestion;
  if (questions.length === 1) {
    const metadata: Record<string, unknown> = { askUser: true, toolCallId: first.toolCallId };
    if (Object.keys(first.opts).length > 0) metadata.askUserOpts = first.opts;
    return { role: "assistant", content: first.question, metadata };
  }
  return { role: "assistant", content: questions.map((q) => q.question).join("\n\n"), metadata: { askUser: true, toolCallId: first.toolCallId, questions } };
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
