import type { JsonSchema, Tool, ToolJSON } from "../index.js";

/**
 * A tool's JSON Schema for a provider's request, read through the tool's own `toJSON` (tools
 * from `defineTool`, resolvers and `withHandler` have one, backed by the schema they prepared).
 * Going through the tool instead of importing the schema compiler keeps zod's JSON Schema
 * conversion out of bundles that import only a parser from `toolrx/providers`.
 *
 * A plain-object tool (e.g. `{ ...tool }`, which drops the non-enumerable `toJSON`) gives its
 * JSON Schema as written, or a zod schema's own conversion, input side as `defineTool` does.
 */
export function toolJsonSchemaOf(tool: Tool): JsonSchema {
  const toJSON = (tool as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return (toJSON.call(tool) as ToolJSON).schema;
  const schema: unknown = tool.schema;
  if (typeof schema === "object" && schema !== null && "_zod" in schema) {
    const convert = (schema as { toJSONSchema?: unknown }).toJSONSchema;
    if (typeof convert !== "function") {
      throw new TypeError(
        `Expected tool "${tool.name}" to come from \`defineTool\`: its zod schema has no \`toJSONSchema\` method to describe it to the model`,
      );
    }
    const { $schema: _draft, ...rest } = convert.call(schema, { io: "input" }) as JsonSchema;
    return rest;
  }
  return schema as JsonSchema;
}
