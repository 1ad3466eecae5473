import { argumentsText, messageList } from "../messages.js";
import { chatUserParts, type ChatContentPart } from "../parts.js";
import { withMarkers } from "../../internal.js";
import { foreignItem } from "../provider-items.js";
import { chatMessageOf, parseToolCalls, type ChatAssistantMessage, type ChatCompletionLike, type ChatToolCall } from "./chat-tool-calls.js";
import type { AssistantMessage, Message, RunResult, ToolMessage } from "../../index.js";

/** A Chat Completions tool-role message, answering one tool call. */
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A Chat Completions request message, as {@link toChatMessages} writes them. */
export type ChatMessageParam =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | ChatToolMessage;

/**
 * Chat Completions: a toolrx conversation as the request's `messages`. An assistant turn keeps
 * its tool calls (their `rawArguments` as the model sent them), each tool message answers its
 * call, the loop's ask-user question is an ordinary assistant message, and approval messages
 * (host bookkeeping) are left out. A user message's content parts become `image_url` and
 * `file` parts; a tool message takes text only here, so its parts become text markers.
 * Chat Completions has no place for reasoning in a request: an assistant turn's reasoning, of
 * any provider, is left out.
 *
 * @example
 * openai.toChatMessages([{ role: "user", content: "Weather in Paris?" }, assistant, toolMessage]);
 * // [{ role: "user", content: "Weather in Paris?" },
 * //  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
 * //  { role: "tool", tool_call_id: "call_1", content: '{"tempC":21}' }]
 */
export function toChatMessages(messages: readonly Message[]): ChatMessageParam[] {
  const out: ChatMessageParam[] = [];
  for (const message of messageList(messages, "openai.toChatMessages")) {
    switch (message.role) {
      case "system":
        out.push({ role: "system", content: message.content });
        break;
      case "user":
        out.push({ role: "user", content: message.parts?.length ? chatUserParts(message.content, message.parts) : message.content });
        break;
      case "assistant": {
        const hosted = message.providerItems?.[0];
        if (hosted !== undefined) throw foreignItem(message, hosted, "openai-chat", messages, "openai.toChatMessages");
        out.push(assistantParam(message));
        break;
      }
      case "tool":
        out.push(chatToolMessage(message));
        break;
    }
  }
  return out;
}

function assistantParam(message: AssistantMessage): ChatMessageParam {
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return { role: "assistant", content: message.content };
  return {
    role: "assistant",
    // What the API itself sends for a turn that only calls tools.
    content: message.content === "" ? null : message.content,
    tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: argumentsText(call) } })),
  };
}

/**
 * Chat Completions: the assistant turn of a completion (or its message) as a toolrx
 * {@link AssistantMessage}, to keep a conversation in toolrx's provider-neutral form. For a
 * whole stored conversation, use `openai.fromChatMessages`.
 *
 * @throws {TypeError} for a message of another role (`user`, `system`, `tool`…): this parser
 * never changes who speaks.
 *
 * @example
 * openai.fromChatMessage(completion);
 * // { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }] }
 */
export function fromChatMessage(response: ChatCompletionLike | ChatAssistantMessage): AssistantMessage {
  const message = chatMessageOf(response, "openai.fromChatMessage") ?? {};
  if (message.role !== undefined && message.role !== "assistant") {
    throw new TypeError(
      `Expected \`openai.fromChatMessage\` to get an assistant message, got a ${JSON.stringify(message.role)} message: use \`openai.fromChatMessages(history)\` for a whole conversation`,
    );
  }
  const toolCalls = parseToolCalls(message);
  const content = typeof message.content === "string" ? message.content : "";
  return toolCalls.length > 0 ? { role: "assistant", content, toolCalls } : { role: "assistant", content };
}

/**
 * Chat Completions: tool-role messages to append after the assistant message.
 *
 * @example
 * const { messages } = await runToolCalls(calls, tools);
 * openai.toToolMessages(messages); // [{ role: "tool", tool_call_id: "call_1", content: '{"tempC":21}' }]
 */
export function toToolMessages(messages: readonly ToolMessage[] | RunResult): ChatToolMessage[] {
  const list = Array.isArray(messages) ? messages : (messages as RunResult).messages;
  return list.map(chatToolMessage);
}

/** A tool message takes text only in Chat Completions: its parts become markers after its content. */
function chatToolMessage(m: ToolMessage): ChatToolMessage {
  return { role: "tool", tool_call_id: m.toolCallId, content: withMarkers(m.content, m.parts) };
}
