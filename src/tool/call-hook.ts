import type { HandlerContext } from "./handler-context.js";
import type { HandlerResult } from "./results.js";
import { describe } from "./tool-error.js";

/**
 * What a `before` hook answers: nothing (let the call through as it is), `{ arguments }` (let it
 * through with these arguments instead, validated again against the tool's schema), or a
 * result, which answers the call without running its handler: `ok(value)` skips it with a value
 * the model reads, `error(reason)` refuses it through `onToolError`, `askUser` and `halt` stop
 * the loop as a handler's would.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook with no return statement has type void; it must stay assignable
export type BeforeCallAnswer = void | undefined | { readonly arguments: Record<string, unknown> } | HandlerResult;

/** What an `after` hook answers: nothing (keep the result), or the result to keep instead. */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook with no return statement has type void; it must stay assignable
export type AfterCallAnswer = void | undefined | HandlerResult;

/**
 * A guardrail around a call: `before` sees the validated arguments before the handler runs,
 * `after` sees what the call came to and may replace it. Hooks run inside the call, so its
 * deadline and `ctx.signal` cover them; a hook that throws (or answers something that is not an
 * answer) fails that call alone, as `handler_raised` (or `invalid_return`) with `metadata.hook`.
 *
 * Several hooks compose like middleware: the run's hooks (`RunOptions.hooks`) wrap the tool's
 * (`defineTool({ hooks })`), each list in its order. `before` hooks run outside in, each seeing
 * the arguments as the previous one left them; `after` hooks run inside out, each seeing the
 * result as the inner ones left it. A `before` that answers the call skips the hooks inside it
 * and the handler, and its own `after`; the hooks outside it still see its answer.
 *
 * @example
 * const noDrop: CallHook = {
 *   before: (args) => (String(args.sql).includes("DROP") ? error("DROP is not allowed") : undefined),
 *   after: (result) => (result.type === "ok" ? ok(redact(result.value)) : undefined),
 * };
 * runToolCalls(calls, tools, { hooks: [noDrop] });
 */
export interface CallHook<Args = Record<string, unknown>> {
  // Methods, not function properties: a tool's typed hooks must fit where any tool's hooks go, as its handler does.
  before?(args: Args, ctx: HandlerContext): BeforeCallAnswer | PromiseLike<BeforeCallAnswer>;
  after?(result: HandlerResult, args: Args, ctx: HandlerContext): AfterCallAnswer | PromiseLike<AfterCallAnswer>;
}

/**
 * Check a list of hooks where it is given, so a typo fails there and not on the first call.
 *
 * @throws {TypeError} naming `option` (`hooks`, or a tool's `hooks`) and the bad entry.
 */
export function checkHooks(hooks: unknown, option: string): readonly CallHook[] | undefined {
  if (hooks === undefined) return undefined;
  if (!Array.isArray(hooks)) throw new TypeError(`Expected \`${option}\` to be an array of { before?, after? } hooks, got ${describe(hooks)}`);
  hooks.forEach((hook: unknown, i) => {
    const h = hook as { before?: unknown; after?: unknown } | null;
    if (typeof h !== "object" || h === null || Array.isArray(h)) {
      throw new TypeError(`Expected \`${option}[${i}]\` to be an object { before?, after? }, got ${describe(hook)}`);
    }
    for (const key of Object.keys(h)) {
      if (key !== "before" && key !== "after") throw new TypeError(`Unknown key \`${key}\` in \`${option}[${i}]\`; a hook has \`before\` and \`after\``);
    }
    for (const key of ["before", "after"] as const) {
      if (h[key] !== undefined && typeof h[key] !== "function") {
        throw new TypeError(`Expected \`${option}[${i}].${key}\` to be a function, got ${describe(h[key])}`);
      }
    }
  });
  return hooks.length === 0 ? undefined : (hooks as readonly CallHook[]);
}
