import { parseArgumentsText } from "../parse-arguments.js";
import { isRecord, kindOf, providerShape, typedItems } from "../shape.js";
import type { AssistantMessage, ProviderItem, RunResult, TextState, ToolCall, ToolMessage } from "../../index.js";
import { OPENAI_RESPONSES } from "./reasoning-items.js";
import { isHostedItem } from "./hosted-items.js";
import { responsesParts, type ResponsesContentPart } from "../parts.js";

/** A Responses API output item; `function_call` items are tool calls, `message` items carry text. */
export type ResponseOutputItem =
  | { type: "function_call"; call_id: string; name: string; arguments: string; id?: string }
  | { type: "message"; id?: string; content: readonly ({ type: "output_text"; text: string } | { type: string })[] }
  | { type: string };

/** A Responses API response, the part the parsers read. */
export interface ResponseLike {
  output: readonly ResponseOutputItem[];
}

/**
 * Responses API: the tool calls of a response (or of its `output`): its `function_call` items,
 * with their `call_id` as the call's id and the item's id as `metadata.itemId` and as the
 * `providerState` that `toResponsesInput` sends back. Other items are ignored.
 *
 * @throws {TypeError} for anything else, saying what to pass.
 *
 * @example
 * openai.parseResponseOutput(response); // or response.output
 * // [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}', metadata: { itemId: "fc_1" },
 * //    providerState: { provider: "openai-responses", data: { id: "fc_1" } } }]
 */
export function parseResponseOutput(response: ResponseLike | readonly ResponseOutputItem[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of outputOf(response, "openai.parseResponseOutput")) {
    if (item.type === "function_call") calls.push(functionCall(item as Extract<ResponseOutputItem, { type: "function_call" }>));
  }
  return calls;
}

/** A `function_call` item as a call. */
export function functionCall(item: { call_id: string; name: string; arguments: string; id?: string }): ToolCall {
  const call: ToolCall = { id: item.call_id, name: item.name, ...parseArgumentsText(item.arguments) };
  if (item.id !== undefined) {
    call.metadata = { itemId: item.id };
    // The item's id goes back with the call: the API ties a reasoning item to the items that followed it.
    call.providerState = { provider: OPENAI_RESPONSES, data: { id: item.id } };
  }
  return call;
}

/**
 * Responses API: a response's turn as a toolrx {@link AssistantMessage}: the text of its
 * `message` items (each item's id in `textState`), its function calls, and the items OpenAI ran
 * itself (web search, tool search…) as `providerItems`, in place.
 *
 * @example
 * openai.fromResponseOutput(response);
 * // { role: "assistant", content: "It is 21°C in Paris." }
 */
export function fromResponseOutput(response: ResponseLike | readonly ResponseOutputItem[]): AssistantMessage {
  const output = outputOf(response, "openai.fromResponseOutput");
  let content = "";
  const providerItems: ProviderItem[] = [];
  const textState: TextState[] = [];
  for (const item of output) {
    if (isHostedItem(item)) providerItems.push({ provider: OPENAI_RESPONSES, item: { ...item }, textOffset: content.length });
    if (item.type !== "message") continue;
    for (const part of (item as Extract<ResponseOutputItem, { type: "message" }>).content) {
      if (part.type === "output_text") content += (part as { text: string }).text;
    }
    const id = (item as { id?: unknown }).id;
    if (typeof id === "string") textState.push({ provider: OPENAI_RESPONSES, data: { id }, textEnd: content.length });
  }
  const toolCalls = parseResponseOutput(output);
  const message: { -readonly [K in keyof AssistantMessage]: AssistantMessage[K] } = { role: "assistant", content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (providerItems.length > 0) message.providerItems = providerItems;
  if (textState.length > 0) message.textState = textState;
  return message;
}

/**
 * Responses API: `function_call_output` input items answering the calls.
 *
 * @example
 * openai.toFunctionCallOutputs(await runToolCalls(calls, tools));
 * // [{ type: "function_call_output", call_id: "call_1", output: '{"tempC":21}' }]
 */
export function toFunctionCallOutputs(
  messages: readonly ToolMessage[] | RunResult,
): { type: "function_call_output"; call_id: string; output: string | ResponsesContentPart[] }[] {
  const list = Array.isArray(messages) ? messages : (messages as RunResult).messages;
  // A tool message's content parts become input_image / input_file parts of its output.
  return list.map((m) => ({ type: "function_call_output", call_id: m.toolCallId, output: m.parts?.length ? responsesParts(m.content, m.parts) : m.content }));
}

function outputOf(response: unknown, fn: string): readonly ResponseOutputItem[] {
  const expected = `Expected \`${fn}\` to get a Responses API response or its \`output\``;
  if (Array.isArray(response)) return typedItems<ResponseOutputItem>(response, expected, "output items");
  if (!isRecord(response)) throw new TypeError(`${expected}, got ${kindOf(response)}`);
  const shape = providerShape(response);
  if (shape === "responses" && Array.isArray(response.output)) return outputOf(response.output, fn);
  if (shape === "chat") throw new TypeError(`${expected}, got a chat completion: use \`openai.parseToolCalls(completion)\``);
  if (shape === "anthropic") throw new TypeError(`${expected}, got an Anthropic message: use \`anthropic.parseToolCalls(message)\``);
  throw new TypeError(`${expected}, got an object without an \`output\` array`);
}
