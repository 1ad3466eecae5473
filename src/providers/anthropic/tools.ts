import { toolJsonSchemaOf } from "../tool-json-schema.js";
import type { Tool } from "../../index.js";

/** A Messages API tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
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
