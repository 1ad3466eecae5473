import type { RunResult, ToolMessage } from "../run-result.js";
import { toolJsonSchema, type Tool } from "../tool.js";
import { isPlainRecord, type ToolCall } from "../tool-call.js";

/** A Messages API content block; only `tool_use` blocks are tool calls. */
export type ContentBlock = { type: "tool_use"; id: string; name: string; input: unknown } | { type: string };

/**
 * Messages API: the `tool_use` blocks of an assistant message. Input that is not an object keeps
 * the call, with its JSON as `rawArguments`, so running it answers the model with the problem.
 *
 * @example
 * anthropic.parseToolCalls(message);
 * // [{ id: "toolu_1", name: "weather", arguments: { city: "Paris" } }]
 */
export function parseToolCalls(message: { content: readonly ContentBlock[] | string }): ToolCall[] {
  if (typeof message.content === "string") return [];
  const calls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type !== "tool_use") continue;
    const { id, name, input } = block as Extract<ContentBlock, { type: "tool_use" }>;
    calls.push(isPlainRecord(input) ? { id, name, arguments: input } : { id, name, arguments: {}, rawArguments: jsonOf(input) });
  }
  return calls;
}

/**
 * Messages API: the one user message that answers every `tool_use` block, errors flagged
 * `is_error: true`.
 *
 * @example
 * anthropic.toToolResultMessage(messages);
 * // { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: '{"tempC":21}', is_error: false }] }
 */
export function toToolResultMessage(messages: readonly ToolMessage[] | RunResult): {
  role: "user";
  content: { type: "tool_result"; tool_use_id: string; content: string; is_error: boolean }[];
} {
  const list = Array.isArray(messages) ? messages : (messages as RunResult).messages;
  return {
    role: "user",
    content: list.map((m) => ({ type: "tool_result", tool_use_id: m.toolCallId, content: m.content, is_error: m.isError })),
  };
}

/**
 * Messages API: the `tools` request parameter. `input_schema` must be an object schema, so a
 * schema without a `type` is given `type: "object"`.
 */
export function toTools(tools: readonly Tool[]): { name: string; description: string; input_schema: { type: "object"; [key: string]: unknown } }[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: { ...toolJsonSchema(tool), type: "object" } }));
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
