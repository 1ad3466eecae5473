import { inputRequired, type ResultContext, resultOf } from "../results/index.js";
import type { McpRequester } from "../wire/index.js";
import { sleep } from "../../util/sleep.js";
import { isTerminal, pollDelay } from "./task-state.js";
import { type McpExtTaskState, readExtTask } from "./ext-task.js";
import { error, type HandlerResult, ToolError } from "../../index.js";

/** What following a task of the extension needs: how to ask, what stops it, who hears each state. */
export interface ExtTaskFollower {
  readonly request: McpRequester;
  /** The `_meta` that opts each request into the extension (a server refuses a task request without it). */
  readonly meta: Record<string, unknown>;
  readonly signal: AbortSignal;
  /** The longest toolrx waits between two `tasks/get`, whatever the server's `pollIntervalMs`. */
  readonly maxPollInterval: number;
  /** The input keys this call already answered: a poll that still shows only them is not asked again. */
  readonly answered: ReadonlySet<string>;
  onState(state: McpExtTaskState): void;
}

/** A task of the extension that ended or needs input, or a description toolrx cannot use. */
export type ExtTaskEnd = { readonly state: McpExtTaskState } | { readonly malformed: string; readonly value: unknown };

/**
 * Follow task `taskId` of the tasks extension (revision 2026-07-28) with `tasks/get` at the
 * server's `pollIntervalMs` (floored, at most `maxPollInterval`: see `pollDelay`) until it ends, its result or error inline,
 * or asks for input the call has not answered yet. There is no `tasks/result`: the last state is
 * the answer. Rejects as the requests do.
 */
export async function followExtTask(f: ExtTaskFollower, taskId: string, created?: McpExtTaskState): Promise<ExtTaskEnd> {
  // A task handle carries no result: even one created ended is read with tasks/get.
  if (created?.status === "working") await sleep(pollDelay(created.pollInterval, f.maxPollInterval), f.signal);
  for (;;) {
    const answer = await f.request("tasks/get", { taskId, _meta: f.meta }, { signal: f.signal });
    const state = readExtTask(answer, taskId);
    if (typeof state === "string") return { malformed: state, value: answer };
    f.onState(state);
    if (isTerminal(state.status)) return { state };
    const asks = state.inputRequests === undefined ? [] : Object.keys(state.inputRequests).filter((key) => !f.answered.has(key));
    if (asks.length > 0) return { state };
    await sleep(pollDelay(state.pollInterval, f.maxPollInterval), f.signal);
  }
}

/**
 * The call's answer from the state a task of the extension stopped in: `completed` is its result,
 * read like any `tools/call` result; `failed` (a JSON-RPC error during the call) and `cancelled`
 * are `handler_raised` errors saying so; `input_required` is `ask_user` with the requests this
 * call has not answered, the task id with them, so the answer goes to the task (`tasks/update`).
 */
export function extTaskOutcome(state: McpExtTaskState, rc: ResultContext, answered: ReadonlySet<string>, metadata: Record<string, unknown>): HandlerResult {
  const { taskId } = state;
  const fail = (why: string, cause?: unknown) =>
    error(
      new ToolError("handler_raised", {
        message: `MCP task ${taskId} of tool ${rc.mcpName} ${why}`,
        toolName: rc.toolName,
        toolCallId: rc.toolCallId,
        cause,
        metadata,
      }),
    );
  switch (state.status) {
    case "completed":
      return resultOf(state.result, rc);
    case "failed": {
      const message = state.error?.message;
      return fail(`failed: ${typeof message === "string" ? message : JSON.stringify(state.error)}`, state.error);
    }
    case "input_required": {
      const asks = Object.entries(state.inputRequests ?? {}).filter(([key]) => !answered.has(key));
      return inputRequired({ inputRequests: Object.fromEntries(asks) }, rc, taskId);
    }
    default:
      return fail("was cancelled by its server");
  }
}
