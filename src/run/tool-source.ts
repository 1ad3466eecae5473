import type { RunEnv } from "./options.js";
import { isToolResolver, resolverTools, type ToolResolver } from "../resolve/resolver.js";
import type { Tool } from "../tool/tool.js";
import { describe } from "../util/safe.js";

/** How a batch finds the tool for a call name. */
export interface ToolSource {
  /** The tool for `name`, first one wins; `undefined` when there is none. */
  lookup(name: string): Tool | undefined;
  /** Every tool name, in list order without repeats: what an unknown-tool message lists. */
  names(): readonly string[];
}

/**
 * A lookup over a tool list or a resolver's tools. The index is built on first use, so a cold
 * stream that is never subscribed does no work (and never calls `availableTools()`).
 */
export function toolSource(tools: readonly Tool[] | ToolResolver, env: RunEnv): ToolSource {
  let list: () => readonly Tool[];
  if (isToolResolver(tools)) {
    list = () => resolverTools(tools, { concurrency: env.recipeConcurrency });
  } else if (Array.isArray(tools)) {
    tools.forEach(assertTool);
    list = () => tools;
  } else {
    throw new TypeError(`Expected \`tools\` to be an array of tools or a ToolResolver, got ${describe(tools)}`);
  }
  let byName: Map<string, Tool> | undefined;
  // Batches repeat names; the last answer saves a hash lookup per call on the hot path.
  let lastName: string | undefined;
  let lastTool: Tool | undefined;
  const index = (): Map<string, Tool> => {
    if (byName === undefined) {
      byName = new Map();
      for (const tool of list()) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    }
    return byName;
  };
  return {
    lookup(name) {
      if (name === lastName) return lastTool;
      lastName = name;
      return (lastTool = (byName ?? index()).get(name));
    },
    names: () => [...index().keys()],
  };
}

function assertTool(tool: unknown, i: number): void {
  if (typeof tool !== "object" || tool === null || typeof (tool as { name?: unknown }).name !== "string") {
    throw new TypeError(`Expected tool at index ${i} to be a tool with a \`name\`, got ${describe(tool)}`);
  }
}
