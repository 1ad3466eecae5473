import { checkArguments, type CheckedArguments } from "../../tool/check-arguments.js";
import { error, isThenable } from "../../tool/results.js";
import type { Tool } from "../../tool/tool.js";
import type { InvalidArgumentsError } from "../../schema/invalid-arguments-error.js";
import { isPlainRecord, settle, describe } from "../../util/safe.js";
import { reportUnhandled } from "../../util/report-unhandled.js";
import { finish, track } from "./call-answer.js";
import { deliver } from "../results/index.js";
import { DONE, VALIDATING, type CallState } from "./call-state.js";
import { dueAt } from "../deadlines/index.js";
import { exitResult } from "../outcome/index.js";

/** What runs the repaired call: call-start.ts's `startAttempt`, passed in so the two files do not import each other. */
export type StartAttempt = (run: CallState, tool: Tool, args: Record<string, unknown>, input: Record<string, unknown>) => void;

/**
 * A call whose arguments failed validation, offered to the run's `repairToolCall` hook. Whatever
 * the hook does, nothing runs on arguments the schema has not accepted: a repair is validated
 * again, and any failure (no repair, a repair that still fails, a throw, a value that is not a
 * plain object) answers the call with the model's own issues, never with empty arguments.
 *
 * A tool with `needsApproval` is never repaired: an approval binds the arguments it was asked
 * for, and a repair would run other ones. Its call is answered with the issues, so the model
 * calls again and that call is asked about.
 *
 * Like asynchronous validation, an asynchronous repair runs within the call's deadline.
 */
export function repairCall(run: CallState, tool: Tool, failed: InvalidArgumentsError, start: StartAttempt): void {
  const repair = run.env.repair;
  if (repair === undefined || (tool.needsApproval !== undefined && tool.needsApproval !== false)) {
    finish(run, error(failed));
    return;
  }
  let repaired: unknown;
  try {
    repaired = repair({ call: run.call, issues: failed.issues, tool });
  } catch (cause) {
    refused(run, failed, cause);
    return;
  }
  if (run.phase === DONE) return;
  if (!isThenable(repaired)) {
    recheck(run, tool, failed, repaired, start);
    return;
  }
  waitWithin(run);
  settle(
    repaired,
    run,
    (r) => run.phase === VALIDATING && recheck(run, tool, failed, r, start),
    (cause: unknown) => run.phase === VALIDATING && refused(run, failed, cause),
  );
}

function recheck(run: CallState, tool: Tool, failed: InvalidArgumentsError, repaired: unknown, start: StartAttempt): void {
  if (repaired === undefined) {
    finish(run, error(failed));
    return;
  }
  if (!isPlainObject(repaired)) {
    const what = `Expected \`repairToolCall\` to return the repaired arguments as a plain object or undefined, got ${describe(repaired)}; call ${run.toolCallId} of tool ${run.toolName} was answered with its issues`;
    refused(run, failed, new TypeError(what));
    return;
  }
  let checked: CheckedArguments | Promise<CheckedArguments>;
  try {
    checked = checkArguments(tool, { id: run.call.id, name: run.call.name, arguments: repaired });
  } catch (cause) {
    finish(run, exitResult(run, cause));
    return;
  }
  if (run.phase === DONE) return;
  if (!isThenable(checked)) {
    repairedCheck(run, tool, failed, checked, repaired, start);
    return;
  }
  waitWithin(run);
  settle(
    checked,
    run,
    (c) => run.phase === VALIDATING && repairedCheck(run, tool, failed, c as CheckedArguments, repaired, start),
    (cause: unknown) => run.phase === VALIDATING && finish(run, exitResult(run, cause)),
  );
}

function repairedCheck(
  run: CallState,
  tool: Tool,
  failed: InvalidArgumentsError,
  checked: CheckedArguments,
  repaired: Record<string, unknown>,
  start: StartAttempt,
): void {
  run.sink.deadlines.remove(run);
  // The model is told about its own arguments: the repair's issues are the host's to see.
  if (!checked.ok) {
    finish(run, error(failed));
    return;
  }
  const listener = run.env.onReport;
  if (listener !== undefined) {
    const { index, toolCallId, toolName } = run;
    deliver(listener, { type: "repaired", index, toolCallId, toolName, issues: failed.issues, arguments: checked.value });
  }
  if (run.phase === DONE) return; // cancelled by id from the listener
  start(run, tool, checked.value, repaired);
}

/**
 * An object literal or a prototype-less object. A class instance, a `Map` or a `Date` may pass a
 * loose schema, but it is not arguments a model could have sent: its getters and methods would
 * reach the handler unchecked. A value whose prototype cannot be read (a revoked Proxy) is not one.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainRecord(value)) return false;
  try {
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

/** The hook failed: the call is answered with its issues, and the hook's failure reaches `config.onUnhandledError`. */
function refused(run: CallState, failed: InvalidArgumentsError, cause: unknown): void {
  reportUnhandled(cause);
  finish(run, error(failed));
}

/** An asynchronous repair, or its validation, waits no longer than the call's deadline. */
function waitWithin(run: CallState): void {
  run.phase = VALIDATING;
  track(run);
  if (run.slot < 0 && run.limits.timeout !== Infinity) run.sink.deadlines.add(run, dueAt(run.sink.deadlines.now(), run.limits.timeout));
}
