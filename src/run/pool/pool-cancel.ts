import type { Tool } from "../../tool/tool.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { reportUnhandled } from "../../util/report-unhandled.js";
import { describe } from "../../util/safe.js";
import { type CallSink, CallRun } from "../call/index.js";
import type { Lanes } from "./lanes.js";
import type { RunningCalls } from "./pool-running.js";
import type { CallCancellation, ToolSource } from "../options/index.js";

/**
 * Cancelling one call by id (`RunOptions.cancel`), wherever it is: running, in its synchronous
 * start, queued, or parked in its lane. Functions of the pool, which holds this state (internal
 * fields, shared with this file only).
 */
export interface CancelScope extends CallSink<CallRun>, RunningCalls {
  readonly source: ToolSource;
  /** Calls not started yet, from `head` on; `base` is the input index of `queue[0]`. */
  readonly queue: readonly ToolCall[];
  readonly head: number;
  readonly base: number;
  /** Indices of queued calls already answered as cancelled. */
  skip: Set<number> | undefined;
  readonly lanes: Lanes | undefined;
  active: number;
  draining: boolean;
  drain(): void;
}

/**
 * Cancel one call by id: running, it is aborted and answered; queued, it is answered at once.
 * A malformed request cancels nothing and is reported, as a throwing listener is.
 */
export function cancelById(pool: CancelScope, request: string | CallCancellation): void {
  const id = typeof request === "string" ? request : request?.toolCallId;
  const reason = typeof request === "string" ? undefined : request?.reason;
  if (typeof id !== "string" || (reason !== undefined && typeof reason !== "string")) {
    reportUnhandled(new TypeError(`Expected \`cancel\` to emit a call id or { toolCallId: string, reason?: string }, got ${describe(request)}`));
    return;
  }
  if (pool.closed) return;
  const hits: CallRun[] = [];
  for (const run of pool.running) if (run.toolCallId === id) hits.push(run);
  const current = pool.current;
  if (current !== undefined && current.runningAt < 0 && current.toolCallId === id) hits.push(current);
  for (const run of hits) run.cancelById(reason);
  for (let i = pool.head; i < pool.queue.length; i++) {
    const call = pool.queue[i] as ToolCall;
    if (call.id === id && !pool.skip?.has(pool.base + i)) {
      pool.skip ??= new Set();
      pool.skip.add(pool.base + i);
      answerCancelled(pool, call, pool.base + i, pool.source.lookup(call.name), reason);
    }
  }
  for (const parked of pool.lanes?.remove(id) ?? []) answerCancelled(pool, parked.call, parked.index, parked.tool, reason);
  pool.drain();
}

/** Answer a call that never took a slot; counted as active while it answers, so `done` balances. */
function answerCancelled(pool: CancelScope, call: ToolCall, index: number, tool: Tool | undefined, reason: string | undefined): void {
  if (pool.closed) return;
  pool.active++;
  const draining = pool.draining;
  pool.draining = true;
  try {
    new CallRun(call, index, tool, pool.env, pool, undefined).answerCancelled(reason);
  } finally {
    pool.draining = draining;
  }
}
