import { defineTool, type InferArguments, type Tool, type ToolDefinition, type ToolSchema } from "../index.js";
import { moduleUrl } from "./pool-options.js";

/**
 * The argument of {@link isolatedTool}: a tool definition whose handler is named, not given,
 * because a function cannot be sent to another thread.
 */
export interface IsolatedToolDefinition<S extends ToolSchema> extends Omit<ToolDefinition<S>, "handler"> {
  /** The handler's module: a file URL (`new URL("./fib.mjs", import.meta.url)`) or an absolute path. */
  readonly module: string | URL;
  /** The module's export that is the handler, called as `(args, ctx)`; default `"default"`. */
  readonly export?: string;
  /**
   * What of `ctx.context` the worker receives (it must survive structured clone: no functions,
   * no sockets); default all of it.
   */
  readonly context?: (context: unknown) => unknown;
}

/** Where an isolated tool's handler lives, as a worker loads it. */
export interface IsolatedHandler {
  readonly module: string;
  readonly export: string;
  readonly context: ((context: unknown) => unknown) | undefined;
}

const handlers = new WeakMap<object, IsolatedHandler>();

/**
 * Define a tool whose handler runs in a worker thread of a {@link workerPool}. Everything else
 * (schema, validation, deadlines, policies, encoding) stays in the calling thread. Run by any
 * other executor, it answers `handler_raised`, saying it needs a pool.
 *
 * @throws {TypeError} as `defineTool` does, and when `module`, `export` or `context` is mistyped.
 * @example
 * const fib = isolatedTool({
 *   name: "fib",
 *   description: "The n-th Fibonacci number, computed the slow way",
 *   schema: z.object({ n: z.number().int() }),
 *   module: new URL("./fib.mjs", import.meta.url), // export function fib({ n }, ctx) { ... }
 *   export: "fib",
 * });
 */
export function isolatedTool<const S extends ToolSchema>(definition: IsolatedToolDefinition<S>): Tool<InferArguments<S>> {
  const { module, export: exportName = "default", context, ...rest } = definition ?? ({} as IsolatedToolDefinition<S>);
  if ("handler" in rest) throw new TypeError(`Expected no \`handler\` on isolated tool "${String(rest.name)}": name it with \`module\` and \`export\``);
  const url = moduleUrl(module, "module", ` of tool "${String(rest.name)}"`);
  if (typeof exportName !== "string" || exportName === "") {
    throw new TypeError(`Expected \`export\` of tool "${String(rest.name)}" to be a non-empty string, got ${typeof exportName}`);
  }
  if (context !== undefined && typeof context !== "function") {
    throw new TypeError(`Expected \`context\` of tool "${String(rest.name)}" to be a function, got ${typeof context}`);
  }
  const name = rest.name;
  const refuse = (): never => {
    throw new TypeError(`Tool "${name}" runs in a worker thread: pass a \`workerPool(…)\` as \`toolExecutor\``);
  };
  // Untyped here: S is already inferred from the caller's definition, and inferring it again is too deep for tsc.
  const define = defineTool as unknown as (definition: object) => Tool<InferArguments<S>>;
  const tool = define({ ...rest, handler: refuse });
  handlers.set(tool, { module: url, export: exportName, context });
  return tool;
}

/** The isolated handler of `tool`, or `undefined` for a tool whose handler runs in-process. */
export function isolatedHandlerOf(tool: Tool): IsolatedHandler | undefined {
  return handlers.get(tool);
}
