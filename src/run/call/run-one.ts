import { CallCancelledError, deliver, type CallReport, type ExecutorFate, type ToolExecutionCompleted } from "../results/index.js";
import type { RunEnv } from "../options/index.js";
import { error } from "../../tool/results.js";
import type { Tool } from "../../tool/tool.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { validationTimeout } from "../outcome/index.js";
import { CallContext, type ClientRequests, type ReportBody } from "./call-context.js";
import { askUserInCall, sampleInCall } from "./client-requests.js";
import type { ProgressUpdate } from "../../tool/handler-context.js";
import type { CallSink } from "./call-sink.js";
import type { Abandoned } from "./late-settlement.js";
import type { RetryPlan } from "../../tool/retry-policy.js";
import { controlOf, retryPlanOf } from "../../tool/tool-control.js";
import { BACKOFF, DONE, IDLE, RUNNING, VALIDATING, type CallState, type Limits, type Retrying } from "./call-state.js";
import { startAttempt } from "./call-start.js";
import { startPlainOrGeneral } from "./plain-call.js";
import { alive, expire, expired, nextDue } from "./call-deadlines.js";
import { finish } from "./call-answer.js";
import { abandon, reportFate, reportGraceOver } from "./call-abandon.js";

/** What each call's `ctx.askUser` and `ctx.sample` run. */
const CLIENT_REQUESTS: ClientRequests = { askUser: askUserInCall, sample: sampleInCall };

/**
 * One call from `started` to its tail event: validate, run each attempt under its deadlines,
 * retry per its plan, apply the policy, encode. A call that finishes synchronously never
 * allocates a timer, a controller or a closure; only the asynchronous path pays for them.
 *
 * This class is the call's state and its lifecycle, what the pool and the call's context ask of
 * it; the steps live beside it as functions of the call: call-start.ts (validation and each
 * attempt's start), call-deadlines.ts (an attempt's end, its deadlines and retries),
 * call-answer.ts (the answer) and call-abandon.ts (attempts the runner stopped waiting for). A
 * plain call (no control, hooks, retry or custom executor) runs those steps folded into one
 * function (plain-call.ts), leaving it for the general path wherever it stops being plain.
 */
export class CallRun implements CallState {
  readonly call: ToolCall;
  readonly index: number;
  /** Fixed when the call starts: a handler that rewrites `ctx.toolCall` cannot change what its events and reports say. */
  readonly toolCallId: string;
  readonly toolName: string;
  readonly tool: Tool | undefined;
  readonly env: RunEnv;
  readonly sink: CallSink<CallRun>;
  /** The pool's bookkeeping: the per-tool or per-group lane whose slot this call holds. */
  readonly lane: unknown;
  due = 0;
  slot = -1;
  /** The pool's bookkeeping: position among its running calls, -1 when not there. */
  runningAt = -1;
  // Internal from here on: the state the files of the call's state machine share (see call-state.ts).
  readonly retry: Retrying | undefined;
  /**
   * The call's deadlines: the run's (`env` itself, so a plain call stores one reference), or the
   * tool's own `control.timeout` and `control.idleTimeout` over them.
   */
  readonly limits: Limits;
  /** Whether any deadline applies: only then is the clock read. */
  readonly clocked: boolean;
  phase = IDLE;
  ctx: CallContext | undefined;
  tracked = false;
  attemptStart = 0;
  lastActive = 0;
  abandoned: Abandoned[] | undefined;
  completed: ToolExecutionCompleted | undefined;

  constructor(call: ToolCall, index: number, tool: Tool | undefined, env: RunEnv, sink: CallSink<CallRun>, lane: unknown) {
    this.call = call;
    this.index = index;
    this.toolCallId = call.id;
    this.toolName = call.name;
    this.tool = tool;
    this.env = env;
    this.sink = sink;
    this.lane = lane;
    let limits: Limits = env;
    let retry: RetryPlan | undefined;
    // A plain call (no control, no run retry) skips the tool's control entirely.
    if (tool !== undefined && (tool.control !== undefined || env.retry !== undefined)) {
      const control = controlOf(tool);
      // A remote job is one attempt: its producer retries.
      retry = env.remoteAttempt ? undefined : retryPlanOf(control, env.retry);
      // Nor are its deadlines its own: the producer's would race a second `timeout` answered here.
      if (!env.remoteAttempt && (control?.timeout !== undefined || control?.idleTimeout !== undefined)) {
        limits = { timeout: control.timeout ?? env.timeout, idleTimeout: control.idleTimeout ?? env.idleTimeout };
      }
    }
    this.limits = limits;
    const { timeout, idleTimeout } = limits;
    // By default every attempt may use its whole deadline and every backoff its cap.
    const total = retry === undefined ? Infinity : (retry.totalTimeout ?? retry.attempts * timeout + (retry.attempts - 1) * retry.maxDelay);
    this.retry = retry === undefined ? undefined : { plan: retry, total, firstStart: 0, args: undefined, input: undefined };
    this.clocked = timeout !== Infinity || idleTimeout !== Infinity || total !== Infinity;
  }

  /** How its contexts ask the client: on the prototype, as every call asks the same way. */
  get requests(): ClientRequests {
    return CLIENT_REQUESTS;
  }

  /**
   * Emit `started` and run the call as far as it goes synchronously. Meanwhile the call is the
   * sink's `current`, so a cancel by id that arrives before it could be tracked (from the
   * `started` observer, a progress listener, the handler itself) still finds it.
   */
  start(): void {
    // Never nested within one pool: its drain loop does not re-enter, and only it starts calls.
    this.sink.current = this;
    startPlainOrGeneral(this);
    this.sink.current = undefined;
  }

  /** Answer a call cancelled while it waited in the queue: `started`, then its cancellation. */
  answerCancelled(reason: string | undefined): void {
    const { call } = this;
    this.sink.next({ type: "tool_execution_started", index: this.index, toolCallId: this.toolCallId, toolName: this.toolName, arguments: call.arguments });
    if (this.sink.closed) return;
    finish(this, error(new CallCancelledError(this.toolName, this.toolCallId, false, reason)));
  }

  /**
   * Cancel this call alone (`RunOptions.cancel`): abort its handler and answer it, even from
   * within the handler's synchronous part (what it returns then is a late settlement).
   */
  cancelById(reason: string | undefined): void {
    if (this.phase === DONE) return;
    const ctx = this.ctx;
    const waitedAfter = this.phase === BACKOFF ? (ctx as CallContext).attempt : undefined;
    const cancelled = new CallCancelledError(this.toolName, this.toolCallId, ctx !== undefined, reason, waitedAfter);
    if (ctx !== undefined && this.phase === RUNNING) {
      // Recorded before the abort: an executor may say the attempt's fate from its abort listener.
      abandon(this, ctx, "cancelled");
      CallContext.abort(ctx, cancelled);
    }
    finish(this, error(cancelled));
  }

  /** Stop waiting for this call (unsubscribe or `opts.signal`): abort its handler, emit nothing. */
  cancel(reason: unknown): void {
    if (this.phase === DONE) return;
    this.phase = DONE;
    this.sink.deadlines.remove(this);
    if (this.ctx !== undefined) CallContext.abort(this.ctx, reason);
  }

  /** A deadline or a backoff is due. */
  wake(now: number): void {
    if (this.phase === VALIDATING) {
      finish(this, error(validationTimeout(this, this.limits.timeout)));
    } else if (this.phase === BACKOFF) {
      const retry = this.retry as Retrying;
      startAttempt(this, this.tool as Tool, retry.args as Record<string, unknown>, retry.input as Record<string, unknown>);
    } else if (this.phase === RUNNING) {
      const fired = expired(this, now);
      if (fired === undefined) this.sink.deadlines.add(this, nextDue(this));
      else expire(this, fired, false);
    }
  }

  progressed(ctx: CallContext, update: ProgressUpdate): void {
    if (!alive(this, ctx)) return;
    const listener = this.env.onReport;
    if (listener === undefined) return;
    deliver(listener, {
      type: "progress",
      index: this.index,
      toolCallId: this.toolCallId,
      toolName: this.toolName,
      attempt: ctx.attempt,
      progress: update.progress,
      total: update.total,
      message: update.message,
      data: update.data,
    });
  }

  reported(ctx: CallContext, body: ReportBody): void {
    // A recipe's sub-steps are its progress: they restart the idle deadline too.
    if (!alive(this, ctx)) return;
    const { onReport: listener, onNested } = this.env;
    if (listener === undefined && onNested === undefined) return;
    const report = { index: this.index, toolCallId: this.toolCallId, toolName: this.toolName, ...body } as CallReport;
    if (onNested !== undefined && report.type === "nested_event") onNested(report);
    if (listener !== undefined) deliver(listener, report);
  }

  /** An attempt's executor said what became of it (`reportFate`): report it, if the runner abandoned it and has not reported it yet. */
  fated(ctx: CallContext, fate: ExecutorFate): void {
    reportFate(this, ctx, fate);
  }

  /** The grace period after abandoning an attempt passed, and it has not settled. */
  graceOver(abandoned: Abandoned): void {
    reportGraceOver(this, abandoned);
  }
}
