import type { CallHook } from "../../tool/call-hook.js";
import { checkArguments, type CheckedArguments } from "../../tool/check-arguments.js";
import type { HandlerContext } from "../../tool/handler-context.js";
import { invalidReturn } from "../../tool/invalid-return.js";
import { error, isHandlerResult, isThenable, type HandlerResult } from "../../tool/results.js";
import type { Tool } from "../../tool/tool.js";
import { ToolError } from "../../tool/tool-error.js";
import { isError, isPlainRecord } from "../../util/safe.js";
import { CallContext } from "./call-context.js";

type Maybe<T> = T | Promise<T>;

/** The hooks a call of `tool` runs under: the run's around the tool's, or `undefined` for none. */
export function hooksOf(runHooks: readonly CallHook[] | undefined, tool: Tool): readonly CallHook[] | undefined {
  const own = tool.hooks as readonly CallHook[] | undefined;
  if (own === undefined || own.length === 0) return runHooks;
  return runHooks === undefined ? own : [...runHooks, ...own];
}

/**
 * One attempt of a call through its hooks, onion-wise: each `before` outside in, then `inner`
 * (the handler, through the executor), then each `after` inside out. Never throws: a hook's
 * throw is `handler_raised` and a hook's bad answer `invalid_return`, both with `metadata.hook`,
 * so the caller routes them like a handler's.
 */
export function hookedAttempt(
  hooks: readonly CallHook[],
  tool: Tool,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  validate: boolean,
  inner: (args: Record<string, unknown>) => Maybe<unknown>,
): Maybe<HandlerResult> {
  const step = (i: number, args: Record<string, unknown>): Maybe<HandlerResult> => {
    if (i === hooks.length) return then(inner(args), (r) => r as HandlerResult);
    const hook = hooks[i] as CallHook;
    if (hook.before === undefined) return around(i, args);
    let answer: unknown;
    try {
      answer = hook.before(args, ctx);
    } catch (thrown) {
      return hookFailed(tool, ctx, "before", i, thrown);
    }
    if (isThenable(answer))
      return Promise.resolve(answer).then(
        (a) => answered(i, args, a),
        (thrown: unknown) => hookFailed(tool, ctx, "before", i, thrown),
      );
    return answered(i, args, answer);
  };

  const answered = (i: number, args: Record<string, unknown>, answer: unknown): Maybe<HandlerResult> => {
    if (answer === undefined) return around(i, args);
    if (isHandlerResult(answer)) return answer;
    if (isPlainRecord(answer) && isPlainRecord(answer.arguments) && Object.keys(answer).length === 1) {
      const rewritten = answer.arguments;
      if (!validate) return around(i, rewrite(ctx, rewritten));
      const checked = checkArguments(tool, { ...ctx.toolCall, arguments: rewritten, rawArguments: undefined });
      return then(checked, (c: CheckedArguments) => (c.ok ? around(i, rewrite(ctx, rewritten, c.value)) : error(c.error)));
    }
    return error(hookAnswer(tool, ctx, "before", i, answer));
  };

  const around = (i: number, args: Record<string, unknown>): Maybe<HandlerResult> => {
    const after = (hooks[i] as CallHook).after;
    const result = step(i + 1, args);
    if (after === undefined) return result;
    return then(result, (r) => {
      let answer: unknown;
      try {
        answer = after(r, args, ctx);
      } catch (thrown) {
        return hookFailed(tool, ctx, "after", i, thrown);
      }
      const keep = (a: unknown): HandlerResult => (a === undefined ? r : isHandlerResult(a) ? a : error(hookAnswer(tool, ctx, "after", i, a)));
      if (isThenable(answer)) return Promise.resolve(answer).then(keep, (thrown: unknown) => hookFailed(tool, ctx, "after", i, thrown));
      return keep(answer);
    });
  };

  return step(0, args);
}

/** `f(value)` now, or once the promise settles; a rejection passes through untouched. */
function then<T, R>(value: Maybe<T>, f: (value: T) => Maybe<R>): Maybe<R> {
  return isThenable(value) ? (value as Promise<T>).then(f) : f(value as T);
}

function hookFailed(tool: Tool, ctx: HandlerContext, hook: "before" | "after", index: number, thrown: unknown): HandlerResult {
  return error(
    new ToolError("handler_raised", {
      message: `tool error (${tool.name}): handler_raised: its \`${hook}\` hook threw`,
      toolName: tool.name,
      toolCallId: ctx.toolCall.id,
      cause: isError(thrown) ? thrown : { thrown },
      metadata: { hook, hookIndex: index },
    }),
  );
}

function hookAnswer(tool: Tool, ctx: HandlerContext, hook: "before" | "after", index: number, answer: unknown): ToolError {
  const e = invalidReturn(answer, tool.name, ctx.toolCall.id);
  const expected = hook === "before" ? "nothing, { arguments } or a result" : "nothing or a result";
  return new ToolError("invalid_return", {
    message: `the \`${hook}\` hook of tool ${tool.name} answered something that is not ${expected}`,
    toolName: tool.name,
    toolCallId: ctx.toolCall.id,
    cause: e.cause,
    metadata: { hook, hookIndex: index },
  });
}

/**
 * The arguments the rest of the onion runs with, parsed from a `before` hook's `input`, which the
 * runner's `ctx` then says (see `argumentsInputOf`): an executor that sends the call elsewhere
 * sends the rewrite, not the model's arguments.
 */
function rewrite(ctx: HandlerContext, input: Record<string, unknown>, args: Record<string, unknown> = input): Record<string, unknown> {
  if (ctx instanceof CallContext) CallContext.rewrite(ctx, input);
  return args;
}
