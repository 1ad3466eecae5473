import { messageList } from "../messages.js";
import { anthropicBlocks, type AnthropicContentBlock } from "../parts.js";
import { isRecord } from "../shape.js";
import { thinkingBlocks, type ThinkingBlock } from "./thinking.js";
import { interleaved } from "../provider-items.js";
import type { AssistantMessage, Message, RunResult, ToolCall, ToolMessage } from "../../index.js";

/** A `tool_result` block answering one `tool_use`. */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  /** The text, or blocks when the tool message has content parts (images, PDFs). */
  content: string | AnthropicContentBlock[];
  is_error: boolean;
}

/** An assistant content block as {@link toMessages} writes them: text, a call, the model's thinking, or a block the provider ran itself, as it sent it. */
export type AssistantBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | ThinkingBlock
  | HostedBlock;

/**
 * A block Anthropic ran itself (web search, web fetch, code execution, tool search), sent back
 * exactly as the provider wrote it. toolrx never reads inside one: the fields it does not read
 * are typed `never`, which keeps the request assignable to the SDK's own types; cast to the SDK's
 * block type to read them.
 */
export type HostedBlock =
  | { type: "server_tool_use"; id: string; name: never; input: unknown }
  | {
      type:
        | "web_search_tool_result"
        | "web_fetch_tool_result"
        | "code_execution_tool_result"
        | "bash_code_execution_tool_result"
        | "text_editor_code_execution_tool_result"
        | "tool_search_tool_result";
      tool_use_id: string;
      content: never;
    }
  | { type: "container_upload"; file_id: string };

/** A Messages API request message, as {@link toMessages} writes them. */
export type MessageParam = { role: "user"; content: string | UserBlock[] } | { role: "assistant"; content: string | AssistantBlock[] };

/** A user content block as {@link toMessages} writes them: tool results first, then text. */
export type UserBlock = ToolResultBlock | AnthropicContentBlock;

/**
 * Messages API: a toolrx conversation as the request's `system` and `messages`, within the
 * API's rules (`checkConversation(messages, "anthropic")` finds nothing in what it writes from
 * a conversation whose calls are answered). System messages go to `system` (joined by a blank
 * line: the API has no system role in `messages`); an assistant turn becomes its text and
 * `tool_use` blocks; tool messages become `tool_result` blocks (`is_error` from `isError`) at the
 * head of the next user message. Messages of one role in a row are merged into one, since the
 * roles must alternate, and empty text is left out, since the API refuses it: an assistant
 * turn that said nothing (an empty `end_turn`) leaves the tool results and the user's next
 * words in one user message. The loop's ask-user question is ordinary assistant text and
 * approval messages are left out. Content parts become `image` and `document` blocks, in user
 * messages and tool results alike. An assistant turn's reasoning of provider `"anthropic"` goes
 * first in its content, as the `thinking` (with its `signature`) or `redacted_thinking` block it
 * came as; reasoning of another provider, or text alone, is dropped: the API checks a thinking
 * block's signature and refuses one it did not sign.
 *
 * A call whose arguments were not a JSON object keeps the model's text as `input:
 * { rawArguments }` (the API takes only an object there), so the model still sees what it sent
 * next to the tool result that says it was not valid.
 *
 * @example
 * const { system, messages } = anthropic.toMessages(conversation);
 * await client.messages.create({ model, max_tokens: 1024, messages, ...(system ? { system } : {}) });
 */
export function toMessages(conversation: readonly Message[]): { system?: string; messages: MessageParam[] } {
  const system: string[] = [];
  const turns: { role: "user" | "assistant"; blocks: (UserBlock | AssistantBlock)[] }[] = [];
  const add = (role: "user" | "assistant", blocks: readonly (UserBlock | AssistantBlock)[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role !== role) turns.push({ role, blocks: [...blocks] });
    else if (role === "user" && blocks[0]?.type === "tool_result") {
      // Tool results lead their user message: put them after the other results, before any text.
      const at = last.blocks.findIndex((block) => block.type !== "tool_result");
      last.blocks.splice(at === -1 ? last.blocks.length : at, 0, ...blocks);
    } else last.blocks.push(...blocks);
  };
  for (const message of messageList(conversation, "anthropic.toMessages")) {
    if (message.role === "system") system.push(message.content);
    else if (message.role === "tool") add("user", [toolResultBlock(message)]);
    else if (message.role === "user") add("user", message.parts?.length ? anthropicBlocks(message.content, message.parts) : textBlocks(message.content));
    else add("assistant", assistantBlocks(message as AssistantMessage, conversation));
  }
  const messages = turns.map(({ role, blocks }): MessageParam => {
    // One text block is sent as the plain string, as a hand-written request would.
    const only = blocks.length === 1 ? blocks[0] : undefined;
    const content = only?.type === "text" ? (only as { text: string }).text : blocks;
    return { role, content } as MessageParam;
  });
  return system.length > 0 ? { system: system.join("\n\n"), messages } : { messages };
}

/** The API refuses text blocks that are empty or only whitespace. */
function textBlocks(text: string): { type: "text"; text: string }[] {
  return text.trim() === "" ? [] : [{ type: "text", text }];
}

function assistantBlocks(message: AssistantMessage, conversation: readonly Message[]): AssistantBlock[] {
  const calls = (message.toolCalls ?? []).map((call): AssistantBlock => ({ type: "tool_use", id: call.id, name: call.name, input: inputOf(call) }));
  const said = interleaved<AssistantBlock>(message, "anthropic", conversation, "anthropic.toMessages", textBlocks, (item) => ({ ...item }) as HostedBlock);
  return [...thinkingBlocks(message), ...said, ...calls];
}

/** A call's `input`: its arguments, or the model's own text when that text was not a JSON object. */
function inputOf(call: ToolCall): Record<string, unknown> {
  if (call.rawArguments === undefined || call.rawArguments.trim() === "") return call.arguments;
  return isRecord(parseJson(call.rawArguments)) ? call.arguments : { rawArguments: call.rawArguments };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
    content: list.map(toolResultBlock),
  };
}

/** A tool message's `tool_result`: its text, or its text and parts as blocks. */
function toolResultBlock(m: ToolMessage): ToolResultBlock {
  const content = m.parts?.length ? anthropicBlocks(m.content, m.parts) : m.content;
  return { type: "tool_result", tool_use_id: m.toolCallId, content, is_error: m.isError };
}
