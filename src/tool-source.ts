import type { Tool } from "./tool.js";
import { describe } from "./tool-error.js";

/** How a batch finds the tool for a call name. */
export interface ToolSource {
  /** The tool for `name`, first one wins; `undefined` when there is none. */
  lookup(name: string): Tool | undefined;
  /** Names the batch offers, for error messages. */
  names(): readonly string[];
}

/**
 * A lookup over a tool list. The index is built on first use, so a cold stream that is never
 * subscribed does no work.
 */
export function toolSource(tools: unknown): ToolSource {
  if (!Array.isArray(tools)) throw new TypeError(`Expected \`tools\` to be an array of tools, got ${describe(tools)}`);
  tools.forEach((tool: unknown, i) => {
    if (typeof tool !== "object" || tool === null || typeof (tool as { name?: unknown }).name !== "string") {
      throw new TypeError(`Expected tool at index ${i} to be a tool with a \`name\`, got ${describe(tool)}`);
    }
  });
  const list = tools as readonly Tool[];
  let byName: Map<string, Tool> | undefined;
  return {
    lookup(name) {
      if (byName === undefined) {
        byName = new Map();
        for (const tool of list) if (!byName.has(tool.name)) byName.set(tool.name, tool);
      }
      return byName.get(name);
    },
    names: () => list.map((tool) => tool.name),
  };
}
