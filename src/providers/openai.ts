import type { RunResult, ToolMessage } from "../run-result.js";
import { toolJsonSchema, type Tool } from "../tool.js";
import type { ToolCall } from "../tool-call.js";
import { parseArgumentsText } from "./parse-arguments.js";

/** A Chat Completions function tool call, as in `message.tool_calls`. */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The parts of a Chat Completions assistant message that carry tool calls. */
export interface ChatAssistantMessage {
  tool_calls?: readonly (ChatToolCall | { type: string })[] | null;
}

/** A Responses API output item; only `function_call` items are tool calls. */
export type ResponseOutputItem =
  | { type: "function_call"; call_id: string; name: string; arguments: string; id?: string }
  | { type: string };

/**
 * Chat Completions: the tool calls of an assistant message. Arguments that are not a JSON
 * object never throw and never drop the call: it keeps `rawArguments`, and running it answers
 * the model that its arguments were not valid JSON.
 *
 * @example
 * openai.parseToolCalls(completion.choices[0].message);
 * // [{ id: "call_1", name: "weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' }]
 */
export function parseToolCalls(message: ChatAssistantMessage): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of message.tool_calls ?? []) {
    if (item.type !== "function") continue;
    const { id, function: fn } = item as ChatToolCall;
    calls.push({ id, name: fn.name, ...parseArgumentsText(fn.arguments) });
  }
  return calls;
}

/**
 * Chat Completions: tool-role messages to append after the assistant message.
 *
 * @example
 * const { messages } = await runToolCalls(calls, tools);
 * openai.toToolMessages(messages); // [{ role: "tool", tool_call_id: "call_1", content: '{"tempC":21}' }]
 */
export function toToolMessages(messages: readonly ToolMessage[] | RunResult): { role: "tool"; tool_call_id: string; content: string }[] {
  return listOf(messages).map((m) => ({ role: "tool", tool_call_id: m.toolCallId, content: m.content }));
}

/**
 * Chat Completions: the `tools` request parameter.
 *
 * @example
 * openai.toTools([weather]);
 * // [{ type: "function", function: { name: "weather", description: "Weather by city", parameters: { type: "object", ... } } }]
 */
export function toTools(tools: readonly Tool[]): { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown> } }[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) },
  }));
}

/**
 * Responses API: the tool calls among `response.output` (its `function_call` items; the call's
 * id is their `call_id`). Other items are ignored.
 */
export function parseResponseOutput(output: readonly ResponseOutputItem[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of output) {
    if (item.type !== "function_call") continue;
    const { call_id, name, arguments: text, id } = item as Extract<ResponseOutputItem, { type: "function_call" }>;
    const call: ToolCall = { id: call_id, name, ...parseArgumentsText(text) };
    if (id !== undefined) call.metadata = { itemId: id };
    calls.push(call);
  }
  return calls;
}

/**
 * Responses API: the `tools` request parameter (function tools are flat there, not nested
 * under `function`). `strict` stays off: strict mode demands schemas toolrx cannot promise.
 */
export function toResponsesTools(
  tools: readonly Tool[],
): { type: "function"; name: string; description: string; parameters: Record<string, unknown>; strict: false }[] {
  return tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: toolJsonSchema(tool), strict: false }));
}

/** Responses API: `function_call_output` input items answering the calls. */
export function toFunctionCallOutputs(
  messages: readonly ToolMessage[] | RunResult,
): { type: "function_call_output"; call_id: string; output: string }[] {
  return listOf(messages).map((m) => ({ type: "function_call_output", call_id: m.toolCallId, output: m.content }));
}

function listOf(messages: readonly ToolMessage[] | RunResult): readonly ToolMessage[] {
  return Array.isArray(messages) ? messages : (messages as RunResult).messages;
}
