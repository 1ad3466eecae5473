import { askUser, error, isHandlerResult, isThenable, type AskUser, type ErrorResult, type HandlerResult } from "./results.js";
import { UserInputRequired } from "./user-form.js";
import type { Tool } from "./tool.js";
import type { HandlerContext } from "./handler-context.js";
import { invalidReturn } from "./invalid-return.js";
import { isError } from "../util/safe.js";
import { ToolError } from "./tool-error.js";

/**
 * Invokes a tool's handler. Swap it to run handlers elsewhere (a worker, a sandbox, a remote
 * service); the runner adds deadlines, policies and encoding around whatever it returns.
 */
export interface ToolExecutor {
  execute(tool: Tool, args: Record<string, unknown>, ctx: HandlerContext): HandlerResult | Promise<HandlerResult>;
}

/**
 * Calls `handler(args, ctx)` and returns its result unchanged, a handler's own `error`
 * included. It never throws: a throw or rejection becomes `handler_raised`, an illegal return
 * `invalid_return`, a missing handler `not_found`.
 *
 * @example
 * await defaultExecutor.execute(weather, { city: "Paris" }, ctx); // { type: "ok", value: { tempC: 21 } }
 */
export const defaultExecutor: ToolExecutor = /* @__PURE__ */ Object.freeze({
  execute(tool: Tool, args: Record<string, unknown>, ctx: HandlerContext): HandlerResult | Promise<HandlerResult> {
    const toolName = tool.name;
    const toolCallId = ctx.toolCall.id;
    if (typeof tool.handler !== "function") {
      return error(new ToolError("not_found", { toolName, toolCallId }));
    }
    let returned: unknown;
    try {
      returned = tool.handler(args, ctx);
    } catch (thrown) {
      return raised(thrown, toolName, toolCallId);
    }
    if (isThenable(returned)) {
      let promise: Promise<unknown>;
      try {
        // Even this can throw: a promise whose `constructor` getter throws.
        promise = Promise.resolve(returned);
      } catch (thrown) {
        return raised(thrown, toolName, toolCallId);
      }
      return promise.then(
        (value) => checked(value, toolName, toolCallId),
        (thrown: unknown) => raised(thrown, toolName, toolCallId),
      );
    }
    return checked(returned, toolName, toolCallId);
  },
});

/** What `defaultExecutor` makes of a handler's (settled) return value: itself when legal, else `invalid_return`. */
export function checked(value: unknown, toolName: string, toolCallId: string): HandlerResult {
  if (isHandlerResult(value)) return value;
  return error(invalidReturn(value, toolName, toolCallId));
}

/**
 * What `defaultExecutor` makes of a handler's throw or rejection: `handler_raised`, except a
 * question `ctx.askUser` could not put during the call, which is the call's `ask_user`.
 */
export function raised(thrown: unknown, toolName: string, toolCallId: string): ErrorResult<ToolError> | AskUser {
  if (isQuestion(thrown)) return askUser(thrown.form.question, { ...thrown.opts, form: thrown.form.schema });
  const cause = isError(thrown) ? thrown : { thrown };
  return error(new ToolError("handler_raised", { toolName, toolCallId, cause }));
}

/** Whether `thrown` is `ctx.askUser`'s question; never throws (`instanceof` on a revoked Proxy would). */
function isQuestion(thrown: unknown): thrown is UserInputRequired {
  try {
    return thrown instanceof UserInputRequired;
  } catch {
    return false;
  }
}
