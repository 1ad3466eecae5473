import type { ToolResolver } from "./resolver.js";
import type { Tool } from "../tool/tool.js";

/**
 * One resolver over several: tools are listed in order (the first resolver to list a name owns
 * it), and each call and recipe goes to the resolver that owns its name.
 *
 * @example
 * const resolver = mergeResolvers(toolResolver([weather]), searchService);
 * resolver.availableTools().map((t) => t.name); // ["weather", "search", ...]
 */
export function mergeResolvers(...resolvers: readonly ToolResolver[]): ToolResolver {
  const owner = (name: string) => resolvers.find((r) => r.availableTools().some((tool) => tool.name === name));
  return {
    availableTools() {
      const seen = new Set<string>();
      const tools: Tool[] = [];
      for (const resolver of resolvers) {
        for (const tool of resolver.availableTools()) {
          if (!seen.has(tool.name)) {
            seen.add(tool.name);
            tools.push(tool);
          }
        }
      }
      return tools;
    },
    resolve(call, ctx) {
      const resolver = owner(call.name);
      return resolver === undefined ? { error: `Unknown tool: ${call.name}` } : resolver.resolve(call, ctx);
    },
    dispatchRecipe(toolName) {
      return owner(toolName)?.dispatchRecipe?.(toolName);
    },
  };
}
