import { checkArguments, type CheckedArguments } from "../../tool/check-arguments.js";
import { checked, defaultExecutor, raised } from "../../tool/executor.js";
import { error, isThenable } from "../../tool/results.js";
import type { Tool } from "../../tool/tool.js";
import { settle } from "../../util/safe.js";
import { abandonIfClosed } from "./call-abandon.js";
import { finish, track } from "./call-answer.js";
import { CallContext } from "./call-context.js";
import { nextDue, settled } from "./call-deadlines.js";
import { DONE, RUNNING, VALIDATING, type CallState } from "./call-state.js";
import { dueAt } from "../deadlines/index.js";
import { hookedAttempt, hooksOf } from "./hooked-attempt.js";
import { exitResult } from "../outcome/index.js";
import { repairCall } from "./call-repair.js";

/**
 * A call's start and each of its attempts': `started`, the arguments checked against the
 * schema (within the call's deadline when that takes a promise), then the handler run through
 * the executor and the call hooks, and timed once it hands back a promise.
 */

/** Emit `started`, check the arguments, and run the first attempt as far as it goes synchronously. */
export function startCall(run: CallState): void {
  const { call, tool, env } = run;
  run.sink.next({
    type: "tool_execution_started",
    index: run.index,
    toolCallId: run.toolCallId,
    toolName: run.toolName,
    arguments: call.arguments,
  });
  // Cancelled by id while its `started` was seen: it is answered already.
  if (run.phase === DONE) return;
  if (run.sink.closed) {
    // The consumer let go while seeing `started`: do not run a handler nobody waits for.
    run.phase = DONE;
    return;
  }
  if (tool === undefined) {
    finish(run, error(run.sink.notFound(run)));
    return;
  }
  if (!env.validate) {
    startAttempt(run, tool, call.arguments);
    return;
  }
  let checked: CheckedArguments | Promise<CheckedArguments>;
  try {
    checked = checkArguments(tool, call);
  } catch (cause) {
    finish(run, exitResult(run, cause));
    return;
  }
  validated(run, tool, checked);
}

/** The call's arguments were checked (or their check is under way): go on from there. */
export function validated(run: CallState, tool: Tool, checked: CheckedArguments | Promise<CheckedArguments>): void {
  // A schema's own code (a refinement) may have cancelled the call by id meanwhile.
  if (run.phase === DONE) return;
  if (isThenable(checked)) {
    // No call waits longer than its deadline for anything, its own validation included.
    run.phase = VALIDATING;
    track(run);
    if (run.limits.timeout !== Infinity) run.sink.deadlines.add(run, dueAt(run.sink.deadlines.now(), run.limits.timeout));
    settle(
      checked,
      run,
      (c) => run.phase === VALIDATING && afterCheck(run, tool, c as CheckedArguments),
      (cause: unknown) => run.phase === VALIDATING && finish(run, exitResult(run, cause)),
    );
    return;
  }
  afterCheck(run, tool, checked);
}

function afterCheck(run: CallState, tool: Tool, checked: CheckedArguments): void {
  if (checked.ok) {
    run.sink.deadlines.remove(run);
    startAttempt(run, tool, checked.value);
  } else if (run.env.repair === undefined) finish(run, error(checked.error));
  // A repair runs within the deadline the validation started: it stays armed.
  else repairCall(run, tool, checked.error, startAttempt);
}

/**
 * Start the next attempt: a fresh context, the clock read when a deadline applies, the handler
 * run. `input` is what `args` were parsed from: the model's arguments, or a repair's.
 */
export function startAttempt(run: CallState, tool: Tool, args: Record<string, unknown>, input: Record<string, unknown> = run.call.arguments): void {
  const attempt = run.ctx === undefined ? 1 : run.ctx.attempt + 1;
  const ctx = new CallContext(run, attempt, input);
  run.ctx = ctx;
  run.phase = RUNNING;
  const { retry } = run;
  if (retry !== undefined) {
    retry.args = args;
    retry.input = input;
  }
  if (run.clocked) {
    const now = run.sink.startClock();
    run.attemptStart = run.lastActive = now;
    if (attempt === 1 && retry !== undefined) retry.firstStart = now;
  }
  const { handler } = tool;
  // A remote job's hooks ran on its producer, around the remote executor.
  if ((run.env.hooks !== undefined || tool.hooks !== undefined) && !run.env.remoteAttempt) {
    runHooked(run, tool, args, ctx);
    return;
  }
  if (run.env.executor === defaultExecutor && typeof handler === "function") {
    runHandler(run, handler, args, ctx);
    return;
  }
  let returned: unknown;
  try {
    returned = run.env.executor.execute(tool, args, ctx);
  } catch (cause) {
    if (abandonIfClosed(run, ctx, undefined)) return;
    settled(run, ctx, exitResult(run, cause));
    return;
  }
  accept(run, ctx, returned);
}

/** What an attempt returned, with or without hooks: settled now, or once its promise settles. */
function accept(run: CallState, ctx: CallContext, returned: unknown): void {
  if (abandonIfClosed(run, ctx, returned)) return;
  if (!isThenable(returned)) {
    settled(run, ctx, returned);
    return;
  }
  wentAsync(run);
  // A custom executor's thenable may be hostile: a `then` that throws is that call's `handler_exit`.
  settle(
    returned,
    run,
    (result) => settled(run, ctx, result),
    (cause: unknown) => settled(run, ctx, exitResult(run, cause)),
  );
}

/** The attempt through its call hooks ({@link hookedAttempt}); the executor runs inside them. */
function runHooked(run: CallState, tool: Tool, args: Record<string, unknown>, ctx: CallContext): void {
  const { executor } = run.env;
  const { name } = tool;
  const id = run.toolCallId;
  // The after hooks see a result, whatever the executor did: its throw is `handler_exit`, an illegal shape `invalid_return`.
  const inner = (a: Record<string, unknown>): unknown => {
    let r: unknown;
    try {
      r = executor.execute(tool, a, ctx);
    } catch (cause) {
      return exitResult(run, cause);
    }
    if (!isThenable(r)) return checked(r, name, id);
    return Promise.resolve(r).then(
      (value) => checked(value, name, id),
      (cause: unknown) => exitResult(run, cause),
    );
  };
  accept(run, ctx, hookedAttempt(hooksOf(run.env.hooks, tool) ?? [], tool, args, ctx, run.env.validate, inner));
}

/**
 * `defaultExecutor.execute`, done here: the same results, but a handler's promise is awaited
 * once, by this call, instead of by the executor and again by the runner. One promise hop and
 * four closures less per asynchronous call.
 */
function runHandler(run: CallState, handler: NonNullable<Tool["handler"]>, args: Record<string, unknown>, ctx: CallContext): void {
  const toolName = (run.tool as Tool).name;
  const toolCallId = run.call.id;
  let returned: unknown;
  try {
    // Called as `tool.handler(args, ctx)` is, and as defaultExecutor.execute calls it: `this` is the tool.
    returned = handler.call(run.tool, args, ctx);
  } catch (thrown) {
    if (abandonIfClosed(run, ctx, undefined)) return;
    settled(run, ctx, raised(thrown, toolName, toolCallId));
    return;
  }
  if (abandonIfClosed(run, ctx, returned)) return;
  if (!isThenable(returned)) {
    settled(run, ctx, checked(returned, toolName, toolCallId));
    return;
  }
  awaitHandler(run, ctx, returned, toolName, toolCallId);
}

/** A handler handed back `returned`, a thenable: time the call, and settle it once the promise does. */
export function awaitHandler(run: CallState, ctx: CallContext, returned: unknown, toolName: string, toolCallId: string): void {
  let promise: Promise<unknown>;
  try {
    // Even this can throw: a promise whose `constructor` getter throws.
    promise = Promise.resolve(returned);
  } catch (thrown) {
    settled(run, ctx, raised(thrown, toolName, toolCallId));
    return;
  }
  wentAsync(run);
  try {
    promise.then(
      (value) => settled(run, ctx, checked(value, toolName, toolCallId)),
      (thrown: unknown) => settled(run, ctx, raised(thrown, toolName, toolCallId)),
    );
  } catch (cause) {
    // A promise with a `then` of its own that throws: the executor itself would have thrown.
    settled(run, ctx, exitResult(run, cause));
  }
}

/** The attempt's handler handed back a promise: from now on it must be cancellable and timed. */
function wentAsync(run: CallState): void {
  // Answered during its synchronous part (cancelled, or a late report timed it out): only a
  // late settlement is left to watch for, and the promise's own callbacks do that.
  if (run.phase === DONE) return;
  track(run);
  if (run.clocked && run.phase === RUNNING) {
    // The next handler of this drain pass must read the clock afresh: this one may have run
    // long before handing back its promise, and a stale reading would cut the next deadline short.
    run.sink.forgetClock();
    run.sink.deadlines.add(run, nextDue(run));
  }
}
