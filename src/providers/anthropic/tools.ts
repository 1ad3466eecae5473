import { toolJsonSchemaOf } from "../tool-json-schema.js";
import type { Tool } from "../../index.js";

/** A Messages API tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
  /** Left out of the model's context until the provider's tool search finds it (see `messagesModel`'s `toolSearch`). */
  defer_loading?: boolean;
}

/** Anthropic's own tool search tool, BM25 or regex: it searches the tools sent with `defer_loading: true`. */
export type AnthropicToolSearchTool =
  | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25" }
  | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };

/** The search tool for a `toolSearch.variant`. */
export function anthropicSearchTool(variant: "bm25" | "regex"): AnthropicToolSearchTool {
  return variant === "bm25"
    ? { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" }
    : { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };
}

/**
 * Messages API: the `tools` request parameter. `input_schema` must be an object schema, so a
 * schema without a `type` is given `type: "object"`.
 *
 * @example
 * anthropic.toTools([weather]);
 * // [{ name: "weather", description: "Weather by city", input_schema: { type: "object", properties: { city: { type: "string" } }, ... } }]
 */
export function toTools(tools: readonly Tool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: { ...toolJsonSchemaOf(tool), type: "object" } }));
}
