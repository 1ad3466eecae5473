import { checkArguments } from "../tool/check-arguments.js";
import { errorText, jsonEncoder, type ToolResultEncoder } from "../tool/encoder.js";
import { defaultExecutor } from "../tool/executor.js";
import type { HandlerContext } from "../tool/handler-context.js";
import type { Recipe, ResolveAnswer } from "./recipe.js";
import type { ToolResolver } from "./resolver.js";
import type { Tool } from "../tool/tool.js";
import type { ToolCall } from "../tool/tool-call.js";

/** Options of {@link toolResolver}. */
export interface ToolResolverOptions {
  /** Recipes by tool name, run instead of the tool's handler. */
  recipes?: Readonly<Record<string, Recipe>>;
  /** Turns handler values into text; default `jsonEncoder`. */
  encoder?: ToolResultEncoder;
}

/**
 * A resolver over a plain tool list: each call is validated against its tool's schema and
 * answered by the handler, its value encoded to text. Useful as recipe sub-steps and for
 * merging plain tools with other resolvers. A resolver can only answer text or an error, so a
 * handler's `ask_user` or `halt` is answered as an error saying so.
 *
 * @example
 * const resolver = toolResolver([search, fetchPage], { recipes: { research: (args) => ({ serial: [...] }) } });
 * await runToolCalls(calls, resolver);
 */
export function toolResolver(tools: readonly Tool[], options: ToolResolverOptions = {}): ToolResolver {
  const { recipes = {}, encoder = jsonEncoder } = options;
  const list = [...tools];
  const byName = new Map<string, Tool>();
  for (const tool of list) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  return {
    availableTools: () => list,
    resolve: (call, ctx) => {
      const tool = byName.get(call.name);
      if (tool === undefined) return { error: `Unknown tool: ${call.name}` };
      return answer(tool, call, ctx, encoder);
    },
    dispatchRecipe: (toolName) => (Object.hasOwn(recipes, toolName) ? recipes[toolName] : undefined),
  };
}

async function answer(tool: Tool, call: ToolCall, ctx: HandlerContext, encoder: ToolResultEncoder): Promise<ResolveAnswer> {
  const checked = await checkArguments(tool, call);
  if (!checked.ok) return { error: checked.error.message };
  const result = await defaultExecutor.execute(tool, checked.value, ctx);
  switch (result.type) {
    case "ok":
      try {
        return { ok: encoder.encode(result.value) };
      } catch (e) {
        return { error: `tool ${tool.name} returned a value that could not be encoded: ${errorText(e)}` };
      }
    case "error":
      return { error: errorText(result.reason) };
    case "ask_user":
      return { error: `tool ${tool.name} asked the user "${result.question}", which a resolver cannot relay` };
    case "halt":
      return { error: `tool ${tool.name} halted with reason "${result.reason}", which a resolver cannot relay` };
  }
}
