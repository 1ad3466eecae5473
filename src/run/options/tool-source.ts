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
    const indexed = indexedList(tools);
    assertExecutorsKnown(indexed.controlled, env.executors);
    const checked = indexed.byName;
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

/** A tool list as it was indexed: what must still hold for the index to stand for it. */
interface IndexedList {
  readonly tools: readonly Tool[];
  readonly names: readonly string[];
  readonly controls: readonly unknown[];
  /** The tools with a `control`: the only ones `assertExecutorsKnown` reads. */
  readonly controlled: readonly Tool[];
  readonly byName: Map<string, Tool>;
}

/**
 * Each list's last index, under the list and under its first tool: a host calling with one tool
 * list batch after batch, or with a fresh array of the same tools (`runToolCalls(calls, [tool])`,
 * an MCP host's one call per batch), indexes it once. Held weakly: an entry goes with its key.
 */
const indexedLists = new WeakMap<object, IndexedList>();

/**
 * The index of a tool list, reused while the list holds the same tools under the same names and
 * controls: a list is the caller's and may change between batches (an element replaced, a tool
 * renamed, a `control` set), and then it is checked and indexed again. What the index refuses
 * depends on nothing else, so a list that passed once passes again.
 *
 * @throws {TypeError} as {@link assertTool} and {@link indexTools}.
 */
function indexedList(tools: readonly Tool[]): IndexedList {
  // A first tool that is not an object finds nothing (a WeakMap's `get` answers undefined).
  const known = indexedLists.get(tools) ?? indexedLists.get(tools[0] as Tool);
  if (known !== undefined && stillHolds(known, tools)) return known;
  tools.forEach(assertTool);
  const byName = indexTools(tools);
  const indexed: IndexedList = {
    tools: [...tools],
    names: tools.map((tool) => tool.name),
    controls: tools.map((tool) => tool.control),
    controlled: tools.filter((tool) => tool.control !== undefined),
    byName,
  };
  indexedLists.set(tools, indexed);
  indexedLists.set(tools[0] ?? tools, indexed); // an empty list has no first tool
  return indexed;
}

function stillHolds(known: IndexedList, tools: readonly Tool[]): boolean {
  if (tools.length !== known.tools.length) return false;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (tool === undefined || tool !== known.tools[i] || tool.name !== known.names[i] || tool.control !== known.controls[i]) return false;
  }
  return true;
}

function assertTool(tool: unknown, i: number): void {
  if (typeof tool !== "object" || tool === null || typeof (tool as { name?: unknown }).name !== "string") {
    throw new TypeError(`Expected tool at index ${i} to be a tool with a \`name\`, got ${describe(tool)}`);
  }
}
