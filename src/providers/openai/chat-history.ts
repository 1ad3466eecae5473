import { calledName, historyContent, historyText, partFromUrl, type PartReader } from "../history-text.js";
import { isRecord, kindOf } from "../shape.js";
import { parseToolCalls } from "./chat-tool-calls.js";
import type { AssistantMessage, Message } from "../../index.js";

const USER_TEXT = new Set(["text"]);
const ASSISTANT_TEXT = new Set(["text", "refusal"]);

/**
 * Chat Completions: a stored conversation (the request's `messages`, e.g. what
 * `openai.toChatMessages` wrote, or your own history) as toolrx's conversation, the inverse of
 * `openai.toChatMessages`: `system` and `developer` messages as system messages, user and
 * assistant text, assistant tool calls (their argument text kept as `rawArguments`), and each
 * `tool` message as a tool message with its call's name. Chat has no error flag on a tool
 * message, so `isError` is `false`.
 *
 * @throws {TypeError} for what toolrx's conversation cannot hold, naming the message: a role it
 * does not know (or the legacy `function`), a part that is not text (an image, audio, a file),
 * a custom tool call, a tool message for a call no earlier message made.
 *
 * @example
 * openai.fromChatMessages([
 *   { role: "user", content: "Weather in Paris?" },
 *   { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
 *   { role: "tool", tool_call_id: "call_1", content: '{"tempC":21}' },
 * ]);
 * // [{ role: "user", content: "Weather in Paris?" },
 * //  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }] },
 * //  { role: "tool", toolCallId: "call_1", name: "weather", content: '{"tempC":21}', isError: false }]
 */
/** A Chat Completions user part: `image_url`, or a `file` given inline (a file by id has no bytes here). */
const chatPart: PartReader = (part) => {
  if (part.type === "image_url") return partFromUrl("image", isRecord(part.image_url) ? part.image_url.url : undefined);
  if (part.type === "file" && isRecord(part.file)) return partFromUrl("file", part.file.file_data, part.file.filename);
  return undefined;
};

export function fromChatMessages(messages: readonly unknown[]): Message[] {
  const fn = "openai.fromChatMessages";
  if (!Array.isArray(messages)) throw new TypeError(`Expected \`messages\` of \`${fn}\` to be an array of Chat messages, got ${kindOf(messages)}`);
  const names = new Map<string, string>();
  return messages.map((message: unknown, i): Message => {
    const where = `message ${i} of \`${fn}\``;
    if (!isRecord(message)) throw new TypeError(`Expected ${where} to be an object, got ${kindOf(message)}`);
    switch (message.role) {
      case "system":
      case "developer":
        return { role: "system", content: historyText(message.content, USER_TEXT, where) };
      case "user":
        return { role: "user", ...historyContent(message.content, USER_TEXT, chatPart, where) };
      case "assistant":
        return chatAssistant(message, where, names);
      case "tool": {
        const id = message.tool_call_id;
        if (typeof id !== "string" || id === "") throw new TypeError(`Expected \`tool_call_id\` of ${where} to be a non-empty string, got ${kindOf(id)}`);
        return { role: "tool", toolCallId: id, name: calledName(names, id, where), content: historyText(message.content, USER_TEXT, where), isError: false };
      }
      default:
        throw new TypeError(
          `Expected \`role\` of ${where} to be "system", "developer", "user", "assistant" or "tool", got ${typeof message.role === "string" ? JSON.stringify(message.role) : kindOf(message.role)}`,
        );
    }
  });
}

/** An assistant message of a history: its text (or refusal) and its function tool calls. */
export function chatAssistant(message: Record<string, unknown>, where: string, names?: Map<string, string>): AssistantMessage {
  const toolCalls = message.tool_calls;
  if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) {
    throw new TypeError(`Expected \`tool_calls\` of ${where} to be an array, got ${kindOf(toolCalls)}`);
  }
  for (const [j, call] of (toolCalls ?? []).entries()) {
    if (!isRecord(call) || call.type !== "function" || typeof call.id !== "string" || !isRecord(call.function) || typeof call.function.name !== "string") {
      throw new TypeError(
        `Expected tool call ${j} of ${where} to be a function call with an \`id\` and a \`function.name\`, got ${isRecord(call) ? `a ${JSON.stringify(call.type)} call` : kindOf(call)}`,
      );
    }
    if (typeof call.function.arguments !== "string")
      throw new TypeError(`Expected \`function.arguments\` of tool call ${j} of ${where} to be a string, got ${kindOf(call.function.arguments)}`);
  }
  const calls = parseToolCalls({ tool_calls: toolCalls as never });
  for (const call of calls) names?.set(call.id, call.name);
  const body = message.content ?? message.refusal ?? "";
  const content = historyText(body, ASSISTANT_TEXT, where);
  return calls.length > 0 ? { role: "assistant", content, toolCalls: calls } : { role: "assistant", content };
}
