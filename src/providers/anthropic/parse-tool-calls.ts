import { isRecord, kindOf, providerShape, typedItems } from "../shape.js";
import type { AssistantMessage, ProviderItem, ToolCall } from "../../index.js";
import { isHostedBlock } from "./hosted-blocks.js";

/** A Messages API content block; `tool_use` blocks are tool calls, `text` blocks the turn's text. */
export type ContentBlock = { type: "tool_use"; id: string; name: string; input: unknown } | { type: "text"; text: string } | { type: string };

/** A Messages API message, the part the parsers read. */
export interface MessageLike {
  role?: string;
  content: readonly ContentBlock[] | string;
}

/**
 * Messages API: the `tool_use` blocks of a reply (the whole `Message`, or its `content`). Input
 * that is not an object keeps the call, with its JSON as `rawArguments`, so running it answers
 * the model with the problem.
 *
 * @throws {TypeError} for anything else, saying what to pass (an OpenAI response is recognised).
 *
 * @example
 * anthropic.parseToolCalls(reply);
 * // [{ id: "toolu_1", name: "weather", arguments: { city: "Paris" } }]
 */
export function parseToolCalls(reply: MessageLike | readonly ContentBlock[]): ToolCall[] {
  const content = contentOf(reply, "anthropic.parseToolCalls");
  const calls: ToolCall[] = [];
  for (const block of content) {
    if (block.type === "tool_use") calls.push(toolUseCall(block as Extract<ContentBlock, { type: "tool_use" }>));
  }
  return calls;
}

/** A `tool_use` block as a call. */
export function toolUseCall({ id, name, input }: { id: string; name: string; input: unknown }): ToolCall {
  return isRecord(input) ? { id, name, arguments: input } : { id, name, arguments: {}, rawArguments: jsonOf(input) };
}

/**
 * Messages API: a reply as a toolrx {@link AssistantMessage}: its text blocks joined, its
 * `tool_use` blocks as calls, and the blocks Anthropic ran itself (`server_tool_use` and its
 * results) as `providerItems`, in place. For a whole stored conversation, use `anthropic.fromMessages`.
 *
 * @throws {TypeError} for a user message (or content with `tool_result` blocks): this parser
 * never changes who speaks.
 *
 * @example
 * anthropic.fromMessage(reply);
 * // { role: "assistant", content: "Let me check.", toolCalls: [{ id: "toolu_1", name: "weather", arguments: { city: "Paris" } }] }
 */
export function fromMessage(reply: MessageLike | readonly ContentBlock[]): AssistantMessage {
  const role = isRecord(reply) ? reply.role : undefined;
  if (role !== undefined && role !== "assistant") {
    throw new TypeError(
      `Expected \`anthropic.fromMessage\` to get an assistant message, got a ${JSON.stringify(role)} message: use \`anthropic.fromMessages(history)\` for a whole conversation`,
    );
  }
  const content = contentOf(reply, "anthropic.fromMessage");
  if (content.some((block) => block.type === "tool_result")) {
    throw new TypeError(
      "Expected `anthropic.fromMessage` to get an assistant message, got content with `tool_result` blocks (a user message): use `anthropic.fromMessages(history)` for a whole conversation",
    );
  }
  let text = "";
  const providerItems: ProviderItem[] = [];
  for (const block of content) {
    if (block.type === "text") text += (block as { text: string }).text;
    else if (isHostedBlock(block.type)) providerItems.push({ provider: "anthropic", item: { ...block }, textOffset: text.length });
  }
  const toolCalls = parseToolCalls(content);
  const message: AssistantMessage = toolCalls.length > 0 ? { role: "assistant", content: text, toolCalls } : { role: "assistant", content: text };
  return providerItems.length > 0 ? { ...message, providerItems } : message;
}

function contentOf(reply: unknown, fn: string): readonly ContentBlock[] {
  const expected = `Expected \`${fn}\` to get a Messages API message or its \`content\``;
  if (Array.isArray(reply)) return typedItems<ContentBlock>(reply, expected, "content blocks");
  if (!isRecord(reply)) throw new TypeError(`${expected}, got ${kindOf(reply)}`);
  const shape = providerShape(reply);
  if (shape === "chat") throw new TypeError(`${expected}, got an OpenAI chat completion: use \`openai.parseToolCalls(completion)\``);
  if (shape === "responses") throw new TypeError(`${expected}, got an OpenAI Responses response: use \`openai.parseResponseOutput(response)\``);
  if (typeof reply.content === "string") return [];
  if (Array.isArray(reply.content)) return contentOf(reply.content, fn);
  if ("tool_calls" in reply) throw new TypeError(`${expected}, got an OpenAI chat message: use \`openai.parseToolCalls(message)\``);
  throw new TypeError(`${expected}, got an object without \`content\``);
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
