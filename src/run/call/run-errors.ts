import { error } from "../../tool/results.js";
import { isError } from "../../util/safe.js";
import type { CallIdentity as FullIdentity } from "../../tool/tool-call.js";

/** Whom an error is about: the call's id and tool name as they were when it started. */
type CallIdentity = Pick<FullIdentity, "toolCallId" | "toolName">;
import { ToolError } from "../../tool/tool-error.js";

/** Which deadline fired, as `metadata.deadline` of the `timeout` error says. */
export type Deadline = "toolTimeout" | "toolIdleTimeout" | "totalTimeout";

/** What a deadline error reports about the call's deadlines. */
export interface DeadlineFacts {
  readonly toolTimeout: number;
  readonly toolIdleTimeout: number;
  readonly totalTimeout: number;
}

/**
 * The `timeout` error of a deadline that passed. `settled` says whether the handler had finished
 * (too late) or was still running when the runner stopped waiting.
 */
export function deadlineError(call: CallIdentity, fired: Deadline, facts: DeadlineFacts, settled: boolean): ToolError {
  const metadata: Record<string, unknown> = { toolTimeout: facts.toolTimeout, deadline: fired, settled };
  let message: string;
  if (fired === "toolTimeout") message = `tool ${call.toolName} timed out after ${facts.toolTimeout} ms`;
  else if (fired === "toolIdleTimeout") {
    metadata.toolIdleTimeout = facts.toolIdleTimeout;
    message = `tool ${call.toolName} timed out: no progress reported for ${facts.toolIdleTimeout} ms`;
  } else {
    metadata.totalTimeout = facts.totalTimeout;
    message = `tool ${call.toolName} timed out: its retries did not finish within ${facts.totalTimeout} ms`;
  }
  return stackless(() => new ToolError("timeout", { message, toolName: call.toolName, toolCallId: call.toolCallId, metadata }));
}

/** The `timeout` of a call whose asynchronous argument validation outlived `toolTimeout`. */
export function validationTimeout(call: CallIdentity, toolTimeout: number): ToolError {
  return stackless(
    () =>
      new ToolError("timeout", {
        message: `the arguments of tool ${call.toolName} were still being validated after ${toolTimeout} ms`,
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        metadata: { toolTimeout, deadline: "toolTimeout", settled: false },
      }),
  );
}

/** The executor itself failed: `handler_exit`, since a handler's own throws were its to convert. */
export function exitResult(call: CallIdentity, thrown: unknown): unknown {
  const cause = isError(thrown) ? thrown : { thrown };
  return error(new ToolError("handler_exit", { toolName: call.toolName, toolCallId: call.toolCallId, cause }));
}

type ErrorWithLimit = { stackTraceLimit?: number };

/**
 * Build an error without capturing a stack: a deadline's stack is the timer callback's, useless
 * to anyone, and capturing it was half of a timeout's cost (issue 14). `stackTraceLimit` is V8's
 * (and SpiderMonkey's); elsewhere setting it does nothing.
 */
function stackless<E>(make: () => E): E {
  const limit = (Error as ErrorWithLimit).stackTraceLimit;
  (Error as ErrorWithLimit).stackTraceLimit = 0;
  try {
    return make();
  } finally {
    if (limit === undefined) delete (Error as ErrorWithLimit).stackTraceLimit;
    else (Error as ErrorWithLimit).stackTraceLimit = limit;
  }
}
