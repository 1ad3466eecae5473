import type { Message as AgUiMessage, RunAgentInput } from "@ag-ui/core";
import type { ApprovalMessage, ContentPart, Message, ReasoningPart, ToolCall } from "../index.js";
import { argumentsOf } from "../ui-protocol/index.js";

type AgUiContent = Extract<AgUiMessage, { role: "user" }>["content"];

/**
 * The conversation an AG-UI client's `RunAgentInput` stands for, to run `streamAgent` on:
 * developer and system messages as system messages, user messages (their images and documents
 * as parts, by URL or data), assistant messages with their tool calls, tool messages (an `error`,
 * or the `metadata.isError` that {@link toAgUiEvents} sends and `HttpAgent` keeps, makes them
 * error results), then the `resume` entries that answer the interrupts of
 * {@link toAgUiEvents}: `approval:<id>` as an approval decision (`payload.approved`, and
 * `payload.reason` for a denial; `status: "cancelled"` denies; the token is read from the entry's
 * `metadata.token` and checked by the loop under `approvalSecret`, never here), and `ask:<id>` as
 * the user's answer (`payload` as text). An assistant message with the `askUser` metadata
 * toAgUiEvents puts on a question is that question, as the loop wrote it. Reasoning messages are the reasoning of the assistant
 * message after them (of an assistant message of their own when none follows), their
 * `encryptedValue` read as the provider state {@link toAgUiEvents} wrote (any other value is
 * dropped: it is not state a toolrx provider wrote, and no provider takes text alone back).
 * Activity messages are the client's own.
 *
 * @throws {TypeError} when `input.messages` is not an array, a tool message answers a call no
 * assistant message made, or a resume entry names no interrupt toolrx sends.
 */
export function fromRunAgentInput(input: Pick<RunAgentInput, "messages"> & { readonly resume?: RunAgentInput["resume"] }): Message[] {
  if (input === null || typeof input !== "object" || !Array.isArray(input.messages)) {
    throw new TypeError("Expected `input` of `fromRunAgentInput` to be a RunAgentInput with `messages`");
  }
  const names = new Map<string, string>();
  const out: Message[] = [];
  let reasoning: ReasoningPart[] = [];
  /** Reasoning no assistant message took is a turn of reasoning alone, as the loop keeps it. */
  const flush = () => {
    if (reasoning.length > 0) out.push({ role: "assistant", content: "", reasoning });
    reasoning = [];
  };
  input.messages.forEach((m, i) => {
    if (m.role === "reasoning") {
      reasoning.push(reasoningOf(m.content, m.encryptedValue));
      return;
    }
    if (m.role !== "assistant") flush();
    switch (m.role) {
      case "developer":
      case "system":
        out.push({ role: "system", content: m.content });
        return;
      case "user": {
        const { text, parts } = contentOf(m.content);
        out.push(parts.length === 0 ? { role: "user", content: text } : { role: "user", content: text, parts });
        return;
      }
      case "assistant": {
        const toolCalls = (m.toolCalls ?? []).map((c): ToolCall => {
          names.set(c.id, c.function.name);
          return { id: c.id, name: c.function.name, arguments: argumentsOf(c.function.arguments), rawArguments: c.function.arguments };
        });
        const said: Message =
          reasoning.length === 0 ? { role: "assistant", content: m.content ?? "" } : { role: "assistant", content: m.content ?? "", reasoning };
        reasoning = [];
        const asked = toolCalls.length === 0 ? questionOf(m.metadata) : undefined;
        out.push(asked !== undefined ? { ...said, metadata: asked } : toolCalls.length === 0 ? said : { ...said, toolCalls });
        return;
      }
      case "tool": {
        const name = names.get(m.toolCallId);
        if (name === undefined)
          throw new TypeError(`Expected \`messages[${i}]\` of \`fromRunAgentInput\` to answer a call an assistant message made, got ${m.toolCallId}`);
        // The failed flag is `error` (a client's own text) or the `metadata.isError` that toAgUiEvents
        // writes on the result and HttpAgent keeps on the tool message.
        const isError = typeof m.error === "string" || (m as { metadata?: { isError?: unknown } }).metadata?.isError === true;
        const { text } = contentOf(m.content);
        out.push({ role: "tool", toolCallId: m.toolCallId, name, content: isError && text === "" ? (m.error as string) : text, isError });
        return;
      }
      default:
        return;
    }
  });
  flush();
  const answers: string[] = [];
  (input.resume ?? []).forEach((entry, i) => {
    const [kind, ...rest] = String(entry.interruptId).split(":");
    const toolCallId = rest.join(":");
    const payload = entry.payload as { approved?: unknown; reason?: unknown } | undefined;
    if (kind === "approval" && toolCallId !== "") {
      const approved = entry.status === "resolved" && payload?.approved === true;
      const decision: { -readonly [K in keyof ApprovalMessage]: ApprovalMessage[K] } = { role: "approval", toolCallId, approved };
      if (!approved && typeof payload?.reason === "string") decision.reason = payload.reason;
      const token = (entry.metadata as { token?: unknown } | undefined)?.token;
      if (typeof token === "string") decision.token = token;
      out.push(decision);
    } else if (kind === "ask" && toolCallId !== "") {
      if (entry.status === "resolved") answers.push(typeof entry.payload === "string" ? entry.payload : (JSON.stringify(entry.payload) ?? ""));
    } else
      throw new TypeError(
        `Expected \`resume[${i}].interruptId\` of \`fromRunAgentInput\` to be "approval:<toolCallId>" or "ask:<toolCallId>", got ${String(entry.interruptId)}`,
      );
  });
  if (answers.length > 0) out.push({ role: "user", content: answers.join("\n\n") });
  return out;
}

function contentOf(content: AgUiContent): { text: string; parts: ContentPart[] } {
  if (typeof content === "string") return { text: content, parts: [] };
  const texts: string[] = [];
  const parts: ContentPart[] = [];
  for (const p of content) {
    if (p.type === "text") texts.push(p.text);
    else if (p.type === "image" || p.type === "document") {
      const source = p.source;
      const kind = p.type === "image" ? "image" : "file";
      if (source.type === "data") parts.push({ type: kind, data: source.value, mediaType: source.mimeType });
      else if (source.type === "url")
        parts.push(source.mimeType === undefined ? { type: kind, url: source.value } : { type: kind, url: source.value, mediaType: source.mimeType });
    }
  }
  return { text: texts.join("\n\n"), parts };
}

function reasoningOf(text: string, encrypted: string | undefined): ReasoningPart {
  if (encrypted === undefined) return { text };
  try {
    const state: unknown = JSON.parse(encrypted);
    const { provider, data } = (typeof state === "object" && state !== null ? state : {}) as { provider?: unknown; data?: unknown };
    if (typeof provider !== "string") return { text };
    return typeof data === "object" && data !== null && !Array.isArray(data) ? { text, provider, data: data as Record<string, unknown> } : { text, provider };
  } catch {
    return { text };
  }
}

/**
 * The loop's question message, from the metadata toAgUiEvents put on its text message (HttpAgent
 * keeps it): without it the question reads as a new assistant turn, and a call of the turn still
 * waiting for approval would stand unanswered before it.
 */
function questionOf(metadata: unknown): Record<string, unknown> | undefined {
  const { askUser, toolCallId, askUserOpts, questions } = (typeof metadata === "object" && metadata !== null ? metadata : {}) as Record<string, unknown>;
  if (askUser !== true || typeof toolCallId !== "string") return undefined;
  const out: Record<string, unknown> = { askUser, toolCallId };
  if (typeof askUserOpts === "object" && askUserOpts !== null && !Array.isArray(askUserOpts)) out.askUserOpts = askUserOpts;
  if (Array.isArray(questions)) out.questions = questions;
  return out;
}
