import { isPlainRecord } from "../../util/safe.js";
import { sleep } from "../../util/sleep.js";
import type { McpRequester } from "../wire/index.js";
import { isTerminal, type McpTaskState, pollDelay, readTask } from "./task-state.js";

/** What following a task needs: how to ask, what stops it, and who hears each state. */
export interface TaskFollower {
  readonly request: McpRequester;
  /** The call's own signal: aborting it stops polling and the pending `tasks/result`. */
  readonly signal: AbortSignal;
  /** The longest toolrx waits between two `tasks/get`, whatever the server's `pollInterval`. */
  readonly maxPollInterval: number;
  /** Every state read, in order. */
  onState(state: McpTaskState): void;
}

/** The `_meta` key by which a message names the task it belongs to. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** A task that ended in a result (of `tasks/result`), or a server that described it in a way toolrx cannot use. */
export type TaskEnd = { readonly result: unknown } | { readonly malformed: string; readonly value: unknown };

/**
 * Follow task `taskId` to its end: `tasks/get` at the server's `pollInterval` (at most
 * `maxPollInterval`) until it needs input or ends, then `tasks/result`, which the spec has block
 * until the task ends and deliver the server's queued requests (an `elicitation/create`) on the
 * way. Polling goes on beside it, so status changes still reach the call's progress. Rejects as
 * the requests do (a server's error answer, an abort, a lost connection).
 */
export async function followTask(f: TaskFollower, taskId: string): Promise<TaskEnd> {
  for (;;) {
    const answer = await f.request("tasks/get", { taskId }, { signal: f.signal });
    const state = readTask(answer, taskId);
    if (typeof state === "string") return { malformed: state, value: answer };
    f.onState(state);
    if (state.status === "input_required" || isTerminal(state.status)) {
      const result = await resultWhilePolling(f, taskId, state);
      const other = relatedTask(result);
      // The spec has a tasks/result name its task: a result for another task is not this call's.
      if (other !== undefined && other !== taskId) {
        return { malformed: `tasks/result for task ${JSON.stringify(taskId)} names another task, ${JSON.stringify(other)}`, value: result };
      }
      return { result };
    }
    await sleep(pollDelay(state.pollInterval, f.maxPollInterval), f.signal);
  }
}

/** The `related-task` metadata's `taskId` a result carries, or `undefined` when it names none. */
function relatedTask(result: unknown): unknown {
  if (!isPlainRecord(result) || !isPlainRecord(result._meta)) return undefined;
  const related = result._meta[RELATED_TASK];
  return isPlainRecord(related) ? related.taskId : undefined;
}

async function resultWhilePolling(f: TaskFollower, taskId: string, last: McpTaskState): Promise<unknown> {
  const result = f.request("tasks/result", { taskId }, { signal: f.signal });
  if (isTerminal(last.status)) return result;
  let done = false;
  // Stopped with the result, so no poll timer outlives the call.
  const stop = new AbortController();
  const signal = AbortSignal.any([f.signal, stop.signal]);
  const poll = async () => {
    while (!done) {
      await sleep(pollDelay(last.pollInterval, f.maxPollInterval), signal);
      if (done) return;
      const state = readTask(await f.request("tasks/get", { taskId }, { signal }), taskId);
      // A bad state beside a pending result is left to the result: it is the answer that counts.
      if (typeof state !== "string" && !done) {
        last = state;
        f.onState(state);
      }
      if (typeof state !== "string" && isTerminal(state.status)) return;
    }
  };
  // Polling is only for progress: its failures (an abort, a busy server) never fail the call.
  poll().catch(() => {});
  try {
    return await result;
  } finally {
    done = true;
    stop.abort();
  }
}
