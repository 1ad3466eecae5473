import { calledName, historyContent, partFromUrl, type PartReader } from "../history-text.js";
import { isRecord, kindOf } from "../shape.js";
import { functionCall } from "./responses-output.js";
import type { AssistantMessage, Message, ProviderItem, ReasoningPart, ToolCall, ToolMessage } from "../../index.js";
import { reasoningOfItem } from "./reasoning-items.js";
import { isHostedItem } from "./hosted-items.js";

const INPUT_TEXT = new Set(["input_text", "output_text", "text", "refusal"]);

/**
 * Responses API: a stored stateless `input` (what `openai.toResponsesInput` wrote, or your own,
 * output items of earlier responses included) as toolrx's conversation, its inverse: message
 * items by role (`developer` as system), an assistant text item and the `function_call` items
 * after it as one assistant turn, each `function_call_output` as a tool message with its call's
 * name. Reasoning items are the reasoning of the assistant turn they lead, kept whole (ids and
 * encrypted content) as the model function keeps them. Items OpenAI ran itself
 * (`web_search_call`, `tool_search_call`, `tool_search_output`, `code_interpreter_call`…) are the
 * `providerItems` of the assistant turn they came in, in place. Responses has no error flag on
 * an output, so `isError` is `false`.
 *
 * @throws {TypeError} for what toolrx's conversation cannot hold, naming the item: an item type
 * other than a message, reasoning, a function call or its output and a hosted item (a call the
 * client was to answer, such as `computer_call`; item references), a part that is not text, an output for a call no earlier item made.
 *
 * @example
 * openai.fromResponsesInput([
 *   { role: "user", content: "Weather in Paris?" },
 *   { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
 *   { type: "function_call_output", call_id: "call_1", output: '{"tempC":21}' },
 * ]);
 * // [{ role: "user", content: "Weather in Paris?" },
 * //  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }] },
 * //  { role: "tool", toolCallId: "call_1", name: "weather", content: '{"tempC":21}', isError: false }]
 */
/** A Responses input part: `input_image`, or an `input_file` inline or by URL (a file by id has no bytes here). */
const responsesPart: PartReader = (part) => {
  if (part.type === "input_image") return partFromUrl("image", part.image_url);
  if (part.type === "input_file") return partFromUrl("file", part.file_data ?? part.file_url, part.filename);
  return undefined;
};

export function fromResponsesInput(items: readonly unknown[]): Message[] {
  const fn = "openai.fromResponsesInput";
  if (!Array.isArray(items)) throw new TypeError(`Expected \`input\` of \`${fn}\` to be an array of input items, got ${kindOf(items)}`);
  const out: Message[] = [];
  const names = new Map<string, string>();
  /** The assistant turn still taking function calls: its text, and its calls so far. */
  let turn: { content: string; calls: ToolCall[]; reasoning: ReasoningPart[]; items: ProviderItem[] } | undefined;
  const close = () => {
    if (turn === undefined) return;
    let message: AssistantMessage = { role: "assistant", content: turn.content };
    if (turn.reasoning.length > 0) message = { ...message, reasoning: turn.reasoning };
    if (turn.calls.length > 0) message = { ...message, toolCalls: turn.calls };
    out.push(turn.items.length > 0 ? { ...message, providerItems: turn.items } : message);
    turn = undefined;
  };
  items.forEach((item: unknown, i) => {
    const where = `item ${i} of \`${fn}\``;
    if (!isRecord(item)) throw new TypeError(`Expected ${where} to be an object, got ${kindOf(item)}`);
    const type = item.type ?? "message";
    if (type === "reasoning") {
      turn ??= { content: "", calls: [], reasoning: [], items: [] };
      turn.reasoning.push(reasoningOfItem(item));
      return;
    }
    if (type === "function_call") {
      if (typeof item.call_id !== "string" || item.call_id === "" || typeof item.name !== "string" || typeof item.arguments !== "string") {
        throw new TypeError(`Expected ${where} to be a function call with a \`call_id\`, a \`name\` and \`arguments\` text`);
      }
      const call = functionCall(item as { call_id: string; name: string; arguments: string; id?: string });
      names.set(call.id, call.name);
      turn ??= { content: "", calls: [], reasoning: [], items: [] };
      turn.calls.push(call);
      return;
    }
    if (typeof type === "string" && isHostedItem(item as { type: string })) {
      // What OpenAI ran itself belongs to the assistant turn it came in; a call after it closes nothing.
      if (turn !== undefined && turn.calls.length > 0) close();
      turn ??= { content: "", calls: [], reasoning: [], items: [] };
      turn.items.push({ provider: "openai-responses", item, textOffset: turn.content.length });
      return;
    }
    if (type === "function_call_output") {
      close();
      const id = item.call_id;
      if (typeof id !== "string" || id === "") throw new TypeError(`Expected \`call_id\` of ${where} to be a non-empty string, got ${kindOf(id)}`);
      const message: ToolMessage = {
        role: "tool",
        toolCallId: id,
        name: calledName(names, id, where),
        ...historyContent(item.output, INPUT_TEXT, responsesPart, where),
        isError: false,
      };
      out.push(message);
      return;
    }
    if (type !== "message")
      throw new TypeError(
        `Expected ${where} to be a message, a function call or its output, got a ${JSON.stringify(type)} item: toolrx's conversation has no place for it`,
      );
    const { content, parts } = historyContent(item.content, INPUT_TEXT, responsesPart, where);
    if (item.role !== "assistant") close();
    if (parts !== undefined && item.role !== "user")
      throw new TypeError(`Expected ${where} to hold text only: a ${JSON.stringify(item.role)} message has no images or files`);
    switch (item.role) {
      case "assistant":
        // Text after the reasoning or the hosted items of its turn (a web search, then the answer) is that turn's.
        if (turn !== undefined && turn.calls.length === 0 && (turn.items.length > 0 || turn.content === "")) {
          turn.content += content;
          return;
        }
        close();
        turn = { content, calls: [], reasoning: [], items: [] };
        return;
      case "system":
      case "developer":
        out.push({ role: "system", content });
        return;
      case "user":
        out.push(parts === undefined ? { role: "user", content } : { role: "user", content, parts });
        return;
      default:
        throw new TypeError(
          `Expected \`role\` of ${where} to be "system", "developer", "user" or "assistant", got ${typeof item.role === "string" ? JSON.stringify(item.role) : kindOf(item.role)}`,
        );
    }
  });
  close();
  return out;
}
