import { toolJsonSchemaOf } from "../tool-json-schema.js";
import type { Tool } from "../../index.js";

/** A Chat Completions function tool, as the `tools` request parameter lists it. */
export interface ChatFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A Responses API function tool: flat, not nested under `function`. */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: false;
  /** Left out of the model's context until the provider's tool search finds it (see `responsesModel`'s `toolSearch`). */
  defer_loading?: boolean;
}

/** OpenAI's own tool search tool, run on OpenAI's side: it searches the function tools sent with `defer_loading: true`. */
export interface ResponsesToolSearchTool {
  type: "tool_search";
}

/**
 * Chat Completions: the `tools` request parameter.
 *
 * @example
 * openai.toTools([weather]);
 * // [{ type: "function", function: { name: "weather", description: "Weather by city", parameters: { type: "object", ... } } }]
 */
export function toTools(tools: readonly Tool[]): ChatFunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: toolJsonSchemaOf(tool) },
  }));
}

/**
 * Responses API: the `tools` request parameter (function tools are flat there, not nested
 * under `function`). `strict` stays off: strict mode demands schemas toolrx cannot promise.
 *
 * @example
 * openai.toResponsesTools([weather]);
 * // [{ type: "function", name: "weather", description: "Weather by city", parameters: { type: "object", ... }, strict: false }]
 */
export function toResponsesTools(tools: readonly Tool[]): ResponsesFunctionTool[] {
  return tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: toolJsonSchemaOf(tool), strict: false }));
}
