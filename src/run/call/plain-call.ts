import { checkArguments, type CheckedArguments } from "../../tool/check-arguments.js";
import { checked, defaultExecutor, raised } from "../../tool/executor.js";
import { isThenable } from "../../tool/results.js";
import type { Tool } from "../../tool/tool.js";
import { outcomeOf, tailWithinBudget, exitResult } from "../outcome/index.js";
import type { ToolExecutionCompleted } from "../results/index.js";
import { abandonIfClosed, late } from "./call-abandon.js";
import { close, finish } from "./call-answer.js";
import { CallContext } from "./call-context.js";
import { expire, expired, settled } from "./call-deadlines.js";
import { awaitHandler, startCall, validated } from "./call-start.js";
import { DONE, RUNNING, type CallState } from "./call-state.js";

/**
 * A plain call's whole life in one function: `started`, its arguments checked, its one attempt
 * run, its answer. A plain call is the common one: a tool with no `control` and no hooks, no run
 * retry or hooks, the default executor. The general path (call-start.ts, call-deadlines.ts,
 * call-answer.ts) is a state machine of small steps that retries, hooks, repairs and executors
 * share; as separate functions they were a third of a synchronous call's cost (issue 46's profile),
 * where a hand-written runner is one inlined closure. Here a synchronous handler's call goes
 * through those steps without a call between them; anything else hands over to the general path
 * at the point it leaves this one (an asynchronous or failed validation, a promise, a throw, a
 * deadline passed), so every behaviour is the general path's.
 */
export function startPlainOrGeneral(run: CallState): void {
  const { tool, env } = run;
  if (tool === undefined || tool.control !== undefined || run.retry !== undefined || tool.hooks !== undefined || env.hooks !== undefined) {
    startCall(run);
    return;
  }
  const { handler } = tool;
  if (env.executor !== defaultExecutor || typeof handler !== "function") {
    startCall(run);
    return;
  }
  const { call, sink } = run;
  sink.next({ type: "tool_execution_started", index: run.index, toolCallId: run.toolCallId, toolName: run.toolName, arguments: call.arguments });
  // Cancelled by id while its `started` was seen: it is answered already.
  if (run.phase === DONE) return;
  if (sink.closed) {
    // The consumer let go while seeing `started`: do not run a handler nobody waits for.
    run.phase = DONE;
    return;
  }
  let args = call.arguments;
  if (env.validate) {
    let check: CheckedArguments | Promise<CheckedArguments>;
    try {
      check = checkArguments(tool, call);
    } catch (cause) {
      finish(run, exitResult(run, cause));
      return;
    }
    // A promise has no `ok`: reading it costs less than a thenable check.
    if (run.phase === DONE || (check as Partial<CheckedArguments>).ok !== true) {
      validated(run, tool, check);
      return;
    }
    args = (check as CheckedArguments & { ok: true }).value;
  }
  runPlain(run, tool, handler, args);
}

/** The first and only attempt of a plain call, answered here when its handler returns a value. */
function runPlain(run: CallState, tool: Tool, handler: NonNullable<Tool["handler"]>, args: Record<string, unknown>): void {
  const { sink, env } = run;
  const ctx = new CallContext(run, 1, run.call.arguments);
  run.ctx = ctx;
  run.phase = RUNNING;
  if (run.clocked) run.attemptStart = run.lastActive = sink.startClock();
  const toolName = tool.name;
  const toolCallId = run.call.id;
  let returned: unknown;
  try {
    // Called as `tool.handler(args, ctx)` is, and as defaultExecutor.execute calls it: `this` is the tool.
    returned = handler.call(tool, args, ctx);
  } catch (thrown) {
    if (abandonIfClosed(run, ctx, undefined)) return;
    settled(run, ctx, raised(thrown, toolName, toolCallId));
    return;
  }
  if (abandonIfClosed(run, ctx, returned)) return;
  if (isThenable(returned)) {
    awaitHandler(run, ctx, returned, toolName, toolCallId);
    return;
  }
  const result = checked(returned, toolName, toolCallId);
  // Cancelled by id, or timed out by a late report, while the handler ran: what it returned is late.
  if (run.phase !== RUNNING) {
    late(run, ctx, result);
    return;
  }
  let now: number | undefined;
  if (run.clocked) {
    // A handler that blocked the event loop past its deadline returns before the timer can fire.
    now = sink.endClock();
    const fired = expired(run, now);
    if (fired !== undefined) {
      expire(run, fired, true);
      return;
    }
  }
  close(run);
  const tail = outcomeOf(result, run, env);
  const completed = run.completed as ToolExecutionCompleted;
  run.completed = undefined;
  sink.next(completed);
  // The model reads at most the budget; the completed event keeps the whole value for the host.
  const budget = env.outputBudget;
  sink.next(budget === Infinity ? tail : tailWithinBudget(tail, budget));
  sink.done(run, run.tracked, now);
}
