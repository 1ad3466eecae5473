import type { ToolExecutor } from "../../tool/executor.js";
import type { Tool } from "../../tool/tool.js";
import { controlOf } from "../../tool/tool-control.js";
import { describe } from "../../util/safe.js";

/**
 * Check `RunOptions.toolExecutors`: an object of executors by the names tools give in
 * `control.executor`.
 *
 * @throws {TypeError} naming the option, or the entry that is not an executor.
 */
export function checkToolExecutors(executors: unknown): ReadonlyMap<string, ToolExecutor> | undefined {
  if (executors === undefined) return undefined;
  if (typeof executors !== "object" || executors === null || Array.isArray(executors)) {
    throw new TypeError(`Expected \`toolExecutors\` to be an object of executors by name, got ${describe(executors)}`);
  }
  const byName = new Map<string, ToolExecutor>();
  for (const [name, executor] of Object.entries(executors)) {
    if (typeof (executor as { execute?: unknown } | null)?.execute !== "function") {
      throw new TypeError(`Expected \`toolExecutors.${name}\` to have an \`execute\` method, got ${describe(executor)}`);
    }
    byName.set(name, executor as ToolExecutor);
  }
  return byName;
}

/**
 * Refuse, before anything runs, a tool that names an executor the run does not have: its calls
 * would otherwise run somewhere else than their author said (in-process instead of a worker).
 *
 * @throws {TypeError} naming the tool, the executor and the ones there are.
 */
export function assertExecutorsKnown(tools: Iterable<Tool>, executors: ReadonlyMap<string, ToolExecutor> | undefined): void {
  for (const tool of tools) {
    if (tool.control === undefined) continue;
    const name = controlOf(tool)?.executor;
    if (name === undefined || executors?.has(name) === true) continue;
    const known =
      executors === undefined || executors.size === 0
        ? "the run has no `toolExecutors`"
        : `\`toolExecutors\` has ${[...executors.keys()].map((k) => `"${k}"`).join(", ")}`;
    throw new TypeError(`Tool "${tool.name}" runs on executor "${name}" (\`control.executor\`), which is not in \`toolExecutors\`: ${known}`);
  }
}

/**
 * One executor for the runner: each call goes to the executor its tool names, the rest to
 * `fallback`. The runner's limits, deadlines, events and reports stay its own, whichever runs it.
 */
export function routedExecutor(fallback: ToolExecutor, executors: ReadonlyMap<string, ToolExecutor>): ToolExecutor {
  return {
    execute(tool, args, ctx) {
      const name = tool.control === undefined ? undefined : controlOf(tool)?.executor;
      if (name === undefined) return fallback.execute(tool, args, ctx);
      const executor = executors.get(name);
      // Refused up front for every listed tool; a guard for one found later, which fails closed.
      if (executor === undefined) throw new TypeError(`Tool "${tool.name}" runs on executor "${name}", which is not in \`toolExecutors\``);
      return executor.execute(tool, args, ctx);
    },
  };
}
