import type { RunEnv } from "./options.js";
import { isToolResolver, resolverTools, type ToolResolver } from "../../resolve/resolver.js";
import type { Tool } from "../../tool/tool.js";
import { indexTools } from "../../tool/tool-index.js";
import { assertExecutorsKnown } from "./tool-executors.js";
import { describe } from "../../util/safe.js";

/** How a batch finds the tool for a call name. */
export interface ToolSource {
  /** The tool for `name`; `undefined` when there is none (names are unique: see {@link indexTools}). */
  lookup(name: string): Tool | undefined;
  /** Every tool name, in list order: what an unknown-tool message lists. */
  names(): readonly string[];
  /**
   * Index the tools now, so that what {@link indexTools} refuses fails the stream before any call
   * runs.
   *
   * @throws {TypeError} as {@link indexTools}.
   */
  check(): void;
}

/**
 * A lookup over a tool list or a resolver's tools. A list is indexed (and checked) at once, so
 * a bad one is a `TypeError` at call time. A resolver's is indexed on first use, so a cold
 * stream that is never subscribed never calls `availableTools()`.
 *
 * @throws {TypeError} for a list that is not one of tools, or that {@link indexTools} refuses.
 */
export function toolSource(tools: readonly Tool[] | ToolResolver, env: RunEnv): ToolSource {
  let byName: Map<string, Tool> | undefined;
  let index: () => Map<string, Tool>;
  if (isToolResolver(tools)) {
    index = () => {
      if (byName !== undefined) return byName;
      const indexed = indexTools(resolverTools(tools, { concurrency: env.recipeConcurrency }), "availableTools()");
      assertExecutorsKnown(indexed.values(), env.executors);
      byName = indexed;
      return indexed;
    };
  } else if (Array.isArray(tools)) {
    tools.forEach(assertTool);
    const checked = indexTools(tools);
    assertExecutorsKnown(checked.values(), env.executors);
    index = () => checked;
  } else {
    throw new TypeError(`Expected \`tools\` to be an array of tools or a ToolResolver, got ${describe(tools)}`);
  }
  // Batches repeat names; the last answer saves a hash lookup per call on the hot path.
  let lastName: string | undefined;
  let lastTool: Tool | undefined;
  return {
    check: () => void index(),
    lookup(name) {
      if (name === lastName) return lastTool;
      lastName = name;
      lastTool = index().get(name);
      return lastTool;
    },
    names: () => [...index().keys()],
  };
}

function assertTool(tool: unknown, i: number): void {
  if (typeof tool !== "object" || tool === null || typeof (tool as { name?: unknown }).name !== "string") {
    throw new TypeError(`Expected tool at index ${i} to be a tool with a \`name\`, got ${describe(tool)}`);
  }
}
