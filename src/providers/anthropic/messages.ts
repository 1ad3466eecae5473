import type { AssistantMessage, Message } from "../../tool/message.js";
import type { RunResult } from "../../run/run-result.js";
import type { ToolMessage } from "../../tool/message.js";
import { messageList } from "../messages.js";

/** A `tool_result` block answering one `tool_use`. */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** An assistant content block as {@link toMessages} writes them. */
export type AssistantBlock = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** A Messages API request message, as {@link toMessages} writes them. */
export type MessageParam =
  | { role: "user"; content: string | ToolResultBlock[] }
  | { role: "assistant"; content: string | AssistantBlock[] };

/**
 * Messages API: a toolrx conversation as the request's `system` and `messages`. System messages
 * go to `system` (joined by a blank line: the API has no system role in `messages`); an
 * assistant turn becomes its text and `tool_use` blocks; consecutive tool messages become one
 * user message of `tool_result` blocks (`is_error` from `isError`), as the API wants; the loop's
 * ask-user question is ordinary assistant text and approval messages are left out.
 *
 * @example
 * const { system, messages } = anthropic.toMessages(conversation);
 * await client.messages.create({ model, max_tokens: 1024, messages, ...(system ? { system } : {}) });
 */
export function toMessages(conversation: readonly Message[]): { system?: string; messages: MessageParam[] } {
  const system: string[] = [];
  const messages: MessageParam[] = [];
  let results: ToolResultBlock[] | undefined;
  for (const message of messageList(conversation, "anthropic.toMessages")) {
    if (message.role === "tool") {
      const block: ToolResultBlock = { type: "tool_result", tool_use_id: message.toolCallId, content: message.content, is_error: message.isError };
      if (results === undefined) messages.push({ role: "user", content: (results = [block]) });
      else results.push(block);
      continue;
    }
    results = undefined;
    if (message.role === "system") system.push(message.content);
    else if (message.role === "user") messages.push({ role: "user", content: message.content });
    else messages.push({ role: "assistant", content: assistantContent(message as AssistantMessage) });
  }
  return system.length > 0 ? { system: system.join("\n\n"), messages } : { messages };
}

function assistantContent(message: AssistantMessage): string | AssistantBlock[] {
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return message.content;
  // The API refuses empty text blocks: a turn that only calls tools has none.
  const text: AssistantBlock[] = message.content === "" ? [] : [{ type: "text", text: message.content }];
  return [...text, ...calls.map((call): AssistantBlock => ({ type: "tool_use", id: call.id, name: call.name, input: call.arguments }))];
}

/**
 * Messages API: the one user message that answers every `tool_use` block, errors flagged
 * `is_error: true`.
 *
 * @example
 * anthropic.toToolResultMessage(messages);
 * // { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: '{"tempC":21}', is_error: false }] }
 */
export function toToolResultMessage(messages: readonly ToolMessage[] | RunResult): { role: "user"; content: ToolResultBlock[] } {
  const list = Array.isArray(messages) ? messages : (messages as RunResult).messages;
  return {
    role: "user",
    content: list.map((m) => ({ type: "tool_result", tool_use_id: m.toolCallId, content: m.content, is_error: m.isError })),
  };
}
