import { sleep } from "../util/sleep.js";
import type { McpRequester } from "./task-requests.js";
import { isTerminal, type McpTaskState, readTask } from "./task-state.js";

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

/** A task that ended in a result (of `tasks/result`), or a server that described it in a way toolrx cannot use. */
export type TaskEnd = { readonly result: unknown } | { readonly malformed: string; readonly value: unknown };

/** The server's `pollInterval` when it gives none (the SDKs' own default). */
const DEFAULT_POLL = 1_000;

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
      return { result: await resultWhilePolling(f, taskId, state) };
    }
    await sleep(Math.min(state.pollInterval ?? DEFAULT_POLL, f.maxPollInterval), f.signal);
  }
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
      await sleep(Math.min(last.pollInterval ?? DEFAULT_POLL, f.maxPollInterval), signal);
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
