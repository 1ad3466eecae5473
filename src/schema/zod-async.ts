import type { ZodSchema } from "./types.js";

/**
 * Whether a zod schema holds a callback declared `async` (a `.refine`, `.check`, `.transform` or
 * `z.custom` predicate), anywhere in its tree.
 *
 * Such a schema is parsed asynchronously from its first call. zod's synchronous parse would call
 * the callback, find a promise and throw, dropping that promise: the callback would run twice per
 * call, and if the dropped promise rejected, the rejection would go unhandled, which ends a Node
 * process by default. A callback that returns a promise without being declared `async` cannot be
 * seen here, nor can an async `.superRefine` (zod wraps it in a plain function): the validator
 * learns those from the first call's refusal (see `compileZodSchema`).
 *
 * Lazy schemas (`z.lazy`) are not expanded: calling their getter is zod's business.
 */
export function hasAsyncCallback(schema: ZodSchema): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (!isSchema(node) || seen.has(node)) return false;
    seen.add(node);
    const def = node._zod.def;
    if (isAsyncFunction(def.fn) || isAsyncFunction(def.transform) || isAsyncFunction(def.tx) || isAsyncFunction(node._zod.check)) return true;
    for (const [key, value] of Object.entries(def)) {
      if (key === "getter") continue;
      if (visit(value)) return true;
      if (Array.isArray(value)) {
        if (value.some(visit)) return true;
      } else if (key === "shape" && typeof value === "object" && value !== null) {
        if (Object.values(value).some(visit)) return true;
      }
    }
    return false;
  };
  return visit(schema);
}

interface SchemaNode {
  _zod: { def: Record<string, unknown>; check?: unknown };
}

function isSchema(value: unknown): value is SchemaNode {
  if (typeof value !== "object" || value === null) return false;
  const internals = (value as { _zod?: unknown })._zod;
  return typeof internals === "object" && internals !== null && typeof (internals as { def?: unknown }).def === "object";
}

/** The same syntactic test zod's own compiler uses. */
function isAsyncFunction(fn: unknown): boolean {
  return (
    typeof fn === "function" && (fn.constructor?.name === "AsyncFunction" || (fn as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "AsyncFunction")
  );
}
