import { calledName, historyContent, historyText, type PartReader } from "../history-text.js";
import { isRecord, kindOf } from "../shape.js";
import { toolUseCall } from "./parse-tool-calls.js";
import { isHostedBlock } from "./hosted-blocks.js";
import type { AssistantMessage, Message, ProviderItem, ReasoningPart, ToolCall, ToolMessage } from "../../index.js";
import { reasoningOfBlock } from "./thinking.js";

const TEXT = new Set(["text"]);

/**
 * Messages API: a stored conversation (`{ system?, messages }` as `anthropic.toMessages`
 * wrote it, or the `messages` alone) as toolrx's conversation, its inverse: `system` first as a
 * system message, each `tool_result` block as a tool message (`isError` from `is_error`, the
 * name from its `tool_use`) before the text of its user message, assistant text and `tool_use`
 * blocks as one assistant turn. An `input` of `{ rawArguments }` (how `toMessages` keeps a call
 * whose arguments were not a JSON object) is the call's `rawArguments` again. Blocks Anthropic
 * ran itself (`server_tool_use`, `web_search_tool_result`, `tool_search_tool_result`…) are the
 * turn's `providerItems`, in place. Thinking and redacted thinking blocks are the turn's
 * reasoning, as the model function keeps them.
 *
 * @throws {TypeError} for what toolrx's conversation cannot hold, naming the message: a role
 * other than `user` and `assistant`, a block that is not text or a tool call or result (an
 * image or a document in an assistant message), a `tool_result` for a call no earlier message made.
 *
 * @example
 * anthropic.fromMessages({ system: "Be brief.", messages: [{ role: "user", content: "Hi" }] });
 * // [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }]
 */
export function fromMessages(request: { readonly system?: unknown; readonly messages: readonly unknown[] } | readonly unknown[]): Message[] {
  const fn = "anthropic.fromMessages";
  const messages: unknown = Array.isArray(request) ? request : isRecord(request) ? request.messages : undefined;
  if (!Array.isArray(messages)) throw new TypeError(`Expected \`${fn}\` to get \`{ system?, messages }\` or a \`messages\` array, got ${kindOf(request)}`);
  const out: Message[] = [];
  const system = Array.isArray(request) ? undefined : (request as { system?: unknown }).system;
  if (system !== undefined && system !== null) {
    const text = historyText(system, TEXT, `\`system\` of \`${fn}\``);
    if (text !== "") out.push({ role: "system", content: text });
  }
  const names = new Map<string, string>();
  messages.forEach((message: unknown, i) => {
    const where = `message ${i} of \`${fn}\``;
    if (!isRecord(message)) throw new TypeError(`Expected ${where} to be an object, got ${kindOf(message)}`);
    if (message.role === "user") out.push(...userMessages(message.content, where, names));
    else if (message.role === "assistant") out.push(assistantMessage(message.content, where, names));
    else
      throw new TypeError(
        `Expected \`role\` of ${where} to be "user" or "assistant", got ${typeof message.role === "string" ? JSON.stringify(message.role) : kindOf(message.role)}`,
      );
  });
  return out;
}

/** An `image` or `document` block (base64 or URL); a document by URL is a PDF, the only kind the API fetches. */
const anthropicPart: PartReader = (block) => {
  if ((block.type !== "image" && block.type !== "document") || !isRecord(block.source)) return undefined;
  const type = block.type === "image" ? "image" : "file";
  const { source } = block;
  if (source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string") {
    return { type, mediaType: source.media_type, data: source.data };
  }
  if (source.type === "url" && typeof source.url === "string")
    return type === "image" ? { type, url: source.url } : { type, mediaType: "application/pdf", url: source.url };
  return undefined;
};

function userMessages(content: unknown, where: string, names: ReadonlyMap<string, string>): Message[] {
  if (typeof content === "string") return [{ role: "user", content }];
  if (!Array.isArray(content)) throw new TypeError(`Expected \`content\` of ${where} to be a string or an array of content blocks, got ${kindOf(content)}`);
  const results: ToolMessage[] = [];
  const text: unknown[] = [];
  for (const [j, block] of content.entries()) {
    if (!isRecord(block) || block.type !== "tool_result") {
      text.push(block);
      continue;
    }
    const id = block.tool_use_id;
    if (typeof id !== "string" || id === "")
      throw new TypeError(`Expected \`tool_use_id\` of block ${j} of ${where} to be a non-empty string, got ${kindOf(id)}`);
    const body = block.content === undefined ? { content: "" } : historyContent(block.content, TEXT, anthropicPart, `block ${j} of ${where}`);
    results.push({ role: "tool", toolCallId: id, name: calledName(names, id, `block ${j} of ${where}`), ...body, isError: block.is_error === true });
  }
  return text.length > 0 ? [...results, { role: "user", ...historyContent(text, TEXT, anthropicPart, where) }] : results;
}

function assistantMessage(content: unknown, where: string, names: Map<string, string>): Message {
  if (typeof content === "string") return { role: "assistant", content };
  if (!Array.isArray(content)) throw new TypeError(`Expected \`content\` of ${where} to be a string or an array of content blocks, got ${kindOf(content)}`);
  let text = "";
  const calls: ToolCall[] = [];
  const reasoning: ReasoningPart[] = [];
  const items: ProviderItem[] = [];
  for (const [j, block] of content.entries()) {
    const type = isRecord(block) ? block.type : undefined;
    const thought = reasoningOfBlock(block);
    if (thought !== undefined) reasoning.push(thought);
    else if (typeof type === "string" && isHostedBlock(type))
      items.push({ provider: "anthropic", item: block as Record<string, unknown>, textOffset: text.length });
    else if (type === "tool_use") {
      const { id, name, input } = block as Record<string, unknown>;
      if (typeof id !== "string" || id === "" || typeof name !== "string")
        throw new TypeError(`Expected block ${j} of ${where} to be a tool_use with an \`id\` and a \`name\``);
      const call = keptArguments(toolUseCall({ id, name, input }));
      names.set(id, name);
      calls.push(call);
    } else text += historyText([block], TEXT, where);
  }
  const said: AssistantMessage = reasoning.length > 0 ? { role: "assistant", content: text, reasoning } : { role: "assistant", content: text };
  const message: AssistantMessage = calls.length > 0 ? { ...said, toolCalls: calls } : said;
  return items.length > 0 ? { ...message, providerItems: items } : message;
}

/** `{ rawArguments }` alone, with text that is not a JSON object: what `toMessages` wrote for such a call. */
function keptArguments(call: ToolCall): ToolCall {
  const keys = Object.keys(call.arguments);
  const raw = call.arguments.rawArguments;
  if (keys.length !== 1 || typeof raw !== "string" || isJsonObject(raw)) return call;
  return { id: call.id, name: call.name, arguments: {}, rawArguments: raw };
}

function isJsonObject(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}
