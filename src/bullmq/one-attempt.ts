import { isToolResolver, type Tool, type ToolResolver } from "../index.js";

/**
 * The worker's view of `tools`: each tool's own `control.retry` turned off. A job is one attempt
 * of a call, numbered by the producer, whose runner owns the retry policy: retrying inside the
 * job as well would run a handler attempts × attempts times, each with the same `ctx.attempt`.
 * A resolver keeps its own methods; only the tools it lists are seen this way.
 */
export function oneAttemptEach(tools: readonly Tool[] | ToolResolver): readonly Tool[] | ToolResolver {
  if (Array.isArray(tools)) return tools.map(withoutRetry);
  if (!isToolResolver(tools)) return tools;
  const resolver = tools;
  return {
    availableTools: () => {
      const listed: unknown = resolver.availableTools();
      // Not an array: the runner refuses it in its own words.
      return Array.isArray(listed) ? listed.map(withoutRetry) : (listed as Tool[]);
    },
    resolve: (call, ctx) => resolver.resolve(call, ctx),
    ...(resolver.dispatchRecipe === undefined ? {} : { dispatchRecipe: (name: string) => resolver.dispatchRecipe?.(name) }),
  };
}

function withoutRetry(tool: Tool): Tool {
  const control = (tool as Partial<Tool> | null)?.control;
  if (typeof control !== "object" || control === null || control.retry === undefined || control.retry === false) return tool;
  // Every own property kept (the prepared schema, `toJSON`), only `control` replaced.
  const properties: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(tool);
  properties.control = { value: { ...control, retry: false }, enumerable: true, writable: false, configurable: false };
  return Object.freeze(Object.create(Object.getPrototypeOf(tool), properties) as Tool);
}
