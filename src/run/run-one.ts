import { CallCancelledError } from "./call-cancelled-error.js";
import { checkArguments, type CheckedArguments } from "../tool/check-arguments.js";
import type { RunEnv } from "./options.js";
import { outcomeOf } from "./outcome.js";
import { checked, defaultExecutor, raised } from "../tool/executor.js";
import { error, isThenable } from "../tool/results.js";
import { settle } from "../util/safe.js";
import type { Tool } from "../tool/tool.js";
import type { CallIdentity, ToolCall } from "../tool/tool-call.js";
import { deadlineError, exitResult, validationTimeout, type Deadline } from "./run-errors.js";
import { CallContext, type ReportBody, type ReportTarget } from "./call-context.js";
import { deliver, type CallReportBase } from "./call-report.js";
import type { ProgressUpdate } from "../tool/handler-context.js";
import type { CallSink } from "./call-sink.js";
import { fated, settledLate, stillRunning, type Abandoned } from "./late-settlement.js";
import type { ExecutorFate } from "./executor-fate.js";
import { dueAt, type Timed } from "./deadlines.js";
import { backoff, errorTerm, isRetryable, NO_ERROR } from "./retry.js";
import type { RetryPlan } from "../tool/retry-policy.js";
import { controlOf, retryPlanOf } from "../tool/tool-control.js";
import { withAttempts } from "./with-attempts.js";
import { hookedAttempt, hooksOf } from "./hooked-attempt.js";
import { tailWithinBudget } from "./output-budget.js";

/** A call's two deadlines in ms; `RunEnv` is one. */
interface Limits {
  readonly timeout: number;
  readonly idleTimeout: number;
}

const IDLE = 0;
const VALIDATING = 1;
const RUNNING = 2;
const BACKOFF = 3;
const DONE = 4;

/**
 * One call from `started` to its tail event: validate, run each attempt under its deadlines,
 * retry per its plan, apply the policy, encode. A call that finishes synchronously never
 * allocates a timer, a controller or a closure; only the asynchronous path pays for them.
 */
export class CallRun implements Timed, ReportTarget, CallIdentity {
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
  readonly #retry: RetryPlan | undefined;
  /**
   * The call's deadlines: the run's (`env` itself, so a plain call stores one reference), or the
   * tool's own `control.timeout` and `control.idleTimeout` over them.
   */
  readonly #limits: Limits;
  /** Whether any deadline applies: only then is the clock read. */
  readonly #clocked: boolean;
  #phase = IDLE;
  #ctx: CallContext | undefined;
  #args: Record<string, unknown> | undefined;
  #tracked = false;
  #attemptStart = 0;
  #lastActive = 0;
  #firstStart = 0;
  /** The retries' overall bound; meaningful only with a retry plan (Infinity would be a boxed double per call). */
  #total = 0;
  #abandoned: Abandoned[] | undefined;

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
      retry = retryPlanOf(control, env.retry);
      if (control?.timeout !== undefined || control?.idleTimeout !== undefined) {
        limits = { timeout: control.timeout ?? env.timeout, idleTimeout: control.idleTimeout ?? env.idleTimeout };
      }
    }
    this.#retry = retry;
    this.#limits = limits;
    const { timeout, idleTimeout } = limits;
    // By default every attempt may use its whole deadline and every backoff its cap.
    if (retry !== undefined) this.#total = retry.totalTimeout ?? retry.attempts * timeout + (retry.attempts - 1) * retry.maxDelay;
    this.#clocked = timeout !== Infinity || idleTimeout !== Infinity || (retry !== undefined && this.#total !== Infinity);
  }

  /**
   * Emit `started` and run the call as far as it goes synchronously. Meanwhile the call is the
   * sink's `current`, so a cancel by id that arrives before it could be tracked (from the
   * `started` observer, a progress listener, the handler itself) still finds it.
   */
  start(): void {
    // Never nested within one pool: its drain loop does not re-enter, and only it starts calls.
    this.sink.current = this;
    this.#start();
    this.sink.current = undefined;
  }

  #start(): void {
    const { call, tool, env } = this;
    this.sink.next({
      type: "tool_execution_started",
      index: this.index,
      toolCallId: this.toolCallId,
      toolName: this.toolName,
      arguments: call.arguments,
    });
    // Cancelled by id while its `started` was seen: it is answered already.
    if (this.#phase === DONE) return;
    if (this.sink.closed) {
      // The consumer let go while seeing `started`: do not run a handler nobody waits for.
      this.#phase = DONE;
      return;
    }
    if (tool === undefined) {
      this.#finish(error(this.sink.notFound(this)));
      return;
    }
    if (!env.validate) {
      this.#attempt(tool, call.arguments);
      return;
    }
    let checked: CheckedArguments | Promise<CheckedArguments>;
    try {
      checked = checkArguments(tool, call);
    } catch (cause) {
      this.#finish(exitResult(this, cause));
      return;
    }
    // A schema's own code (a refinement) may have cancelled the call by id meanwhile.
    if (this.#phase === DONE) return;
    if (isThenable(checked)) {
      // No call waits longer than its deadline for anything, its own validation included.
      this.#phase = VALIDATING;
      this.#track();
      if (this.#limits.timeout !== Infinity) this.sink.deadlines.add(this, dueAt(this.sink.deadlines.now(), this.#limits.timeout));
      settle(
        checked,
        this,
        (c) => this.#phase === VALIDATING && this.#afterCheck(tool, c as CheckedArguments),
        (cause: unknown) => this.#phase === VALIDATING && this.#finish(exitResult(this, cause)),
      );
      return;
    }
    this.#afterCheck(tool, checked);
  }

  /** Answer a call cancelled while it waited in the queue: `started`, then its cancellation. */
  answerCancelled(reason: string | undefined): void {
    const { call } = this;
    this.sink.next({ type: "tool_execution_started", index: this.index, toolCallId: this.toolCallId, toolName: this.toolName, arguments: call.arguments });
    if (this.sink.closed) return;
    this.#finish(error(new CallCancelledError(this.toolName, this.toolCallId, false, reason)));
  }

  /**
   * Cancel this call alone (`RunOptions.cancel`): abort its handler and answer it, even from
   * within the handler's synchronous part (what it returns then is a late settlement).
   */
  cancelById(reason: string | undefined): void {
    if (this.#phase === DONE) return;
    const ctx = this.#ctx;
    const waitedAfter = this.#phase === BACKOFF ? (ctx as CallContext).attempt : undefined;
    const cancelled = new CallCancelledError(this.toolName, this.toolCallId, ctx !== undefined, reason, waitedAfter);
    if (ctx !== undefined && this.#phase === RUNNING) {
      // Recorded before the abort: an executor may say the attempt's fate from its abort listener.
      this.#abandon(ctx, "cancelled");
      CallContext.abort(ctx, cancelled);
    }
    this.#finish(error(cancelled));
  }

  /** Stop waiting for this call (unsubscribe or `opts.signal`): abort its handler, emit nothing. */
  cancel(reason: unknown): void {
    if (this.#phase === DONE) return;
    this.#phase = DONE;
    this.sink.deadlines.remove(this);
    if (this.#ctx !== undefined) CallContext.abort(this.#ctx, reason);
  }

  /** A deadline or a backoff is due. */
  wake(now: number): void {
    if (this.#phase === VALIDATING) {
      this.#finish(error(validationTimeout(this, this.#limits.timeout)));
    } else if (this.#phase === BACKOFF) {
      this.#attempt(this.tool as Tool, this.#args as Record<string, unknown>);
    } else if (this.#phase === RUNNING) {
      const fired = this.#expired(now);
      if (fired === undefined) this.sink.deadlines.add(this, this.#nextDue());
      else this.#expire(fired, false);
    }
  }

  progressed(ctx: CallContext, update: ProgressUpdate): void {
    if (!this.#alive(ctx)) return;
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
    if (!this.#alive(ctx)) return;
    const listener = this.env.onReport;
    if (listener === undefined) return;
    deliver(listener, { index: this.index, toolCallId: this.toolCallId, toolName: this.toolName, ...body } as Parameters<typeof listener>[0]);
  }

  /**
   * Whether a report from `ctx` still counts, restarting the idle deadline if so. A report that
   * comes after a deadline passed (the event loop was blocked, so the timer could not fire) is
   * too late, as a result would be: the call times out now instead of being revived.
   */
  #alive(ctx: CallContext): boolean {
    if (ctx !== this.#ctx || this.#phase !== RUNNING) return false;
    if (this.#limits.idleTimeout === Infinity) return true;
    const now = this.sink.deadlines.now();
    const fired = this.#expired(now);
    if (fired === undefined) {
      this.#lastActive = now;
      return true;
    }
    if (this.slot >= 0) this.sink.deadlines.remove(this);
    this.#expire(fired, false);
    return false;
  }

  /** The grace period after abandoning an attempt passed, and it has not settled. */
  graceOver(abandoned: Abandoned): void {
    if (abandoned.reported) return;
    abandoned.reported = true;
    abandoned.grace = undefined;
    const listener = this.env.onReport;
    if (listener !== undefined) deliver(listener, stillRunning(this.#base(), abandoned, this.env.settleGrace));
  }

  #afterCheck(tool: Tool, checked: CheckedArguments): void {
    this.sink.deadlines.remove(this);
    if (checked.ok) this.#attempt(tool, checked.value);
    else this.#finish(error(checked.error));
  }

  #attempt(tool: Tool, args: Record<string, unknown>): void {
    const attempt = this.#ctx === undefined ? 1 : this.#ctx.attempt + 1;
    const ctx = new CallContext(this.call, this.env, this, attempt);
    this.#ctx = ctx;
    this.#phase = RUNNING;
    if (this.#retry !== undefined) this.#args = args;
    if (this.#clocked) {
      const now = this.sink.startClock();
      this.#attemptStart = this.#lastActive = now;
      if (attempt === 1) this.#firstStart = now;
    }
    const { handler } = tool;
    if (this.env.hooks !== undefined || tool.hooks !== undefined) {
      this.#runHooked(tool, args, ctx);
      return;
    }
    if (this.env.executor === defaultExecutor && typeof handler === "function") {
      this.#runHandler(handler, args, ctx);
      return;
    }
    let returned: unknown;
    try {
      returned = this.env.executor.execute(tool, args, ctx);
    } catch (cause) {
      if (this.#abandonIfClosed(ctx, undefined)) return;
      this.#settled(ctx, exitResult(this, cause));
      return;
    }
    this.#accept(ctx, returned);
  }

  /** What an attempt returned, with or without hooks: settled now, or once its promise settles. */
  #accept(ctx: CallContext, returned: unknown): void {
    if (this.#abandonIfClosed(ctx, returned)) return;
    if (!isThenable(returned)) {
      this.#settled(ctx, returned);
      return;
    }
    this.#wentAsync();
    // A custom executor's thenable may be hostile: a `then` that throws is that call's `handler_exit`.
    settle(
      returned,
      this,
      (result) => this.#settled(ctx, result),
      (cause: unknown) => this.#settled(ctx, exitResult(this, cause)),
    );
  }

  /** The attempt through its call hooks ({@link hookedAttempt}); the executor runs inside them. */
  #runHooked(tool: Tool, args: Record<string, unknown>, ctx: CallContext): void {
    const { executor } = this.env;
    const { name } = tool;
    const id = this.toolCallId;
    // The after hooks see a result, whatever the executor did: its throw is `handler_exit`, an illegal shape `invalid_return`.
    const inner = (a: Record<string, unknown>): unknown => {
      let r: unknown;
      try {
        r = executor.execute(tool, a, ctx);
      } catch (cause) {
        return exitResult(this, cause);
      }
      if (!isThenable(r)) return checked(r, name, id);
      return Promise.resolve(r).then(
        (value) => checked(value, name, id),
        (cause: unknown) => exitResult(this, cause),
      );
    };
    this.#accept(ctx, hookedAttempt(hooksOf(this.env.hooks, tool) ?? [], tool, args, ctx, this.env.validate, inner));
  }

  /**
   * `defaultExecutor.execute`, done here: the same results, but a handler's promise is awaited
   * once, by this call, instead of by the executor and again by the runner. One promise hop and
   * four closures less per asynchronous call.
   */
  #runHandler(handler: NonNullable<Tool["handler"]>, args: Record<string, unknown>, ctx: CallContext): void {
    const toolName = (this.tool as Tool).name;
    const toolCallId = this.call.id;
    let returned: unknown;
    try {
      // Called as `tool.handler(args, ctx)` is, and as defaultExecutor.execute calls it: `this` is the tool.
      returned = handler.call(this.tool, args, ctx);
    } catch (thrown) {
      if (this.#abandonIfClosed(ctx, undefined)) return;
      this.#settled(ctx, raised(thrown, toolName, toolCallId));
      return;
    }
    if (this.#abandonIfClosed(ctx, returned)) return;
    if (!isThenable(returned)) {
      this.#settled(ctx, checked(returned, toolName, toolCallId));
      return;
    }
    let promise: Promise<unknown>;
    try {
      // Even this can throw: a promise whose `constructor` getter throws.
      promise = Promise.resolve(returned);
    } catch (thrown) {
      this.#settled(ctx, raised(thrown, toolName, toolCallId));
      return;
    }
    this.#wentAsync();
    try {
      promise.then(
        (value) => this.#settled(ctx, checked(value, toolName, toolCallId)),
        (thrown: unknown) => this.#settled(ctx, raised(thrown, toolName, toolCallId)),
      );
    } catch (cause) {
      // A promise with a `then` of its own that throws: the executor itself would have thrown.
      this.#settled(ctx, exitResult(this, cause));
    }
  }

  /** The attempt's handler handed back a promise: from now on it must be cancellable and timed. */
  #wentAsync(): void {
    // Answered during its synchronous part (cancelled, or a late report timed it out): only a
    // late settlement is left to watch for, and the promise's own callbacks do that.
    if (this.#phase === DONE) return;
    this.#track();
    if (this.#clocked && this.#phase === RUNNING) {
      // The next handler of this drain pass must read the clock afresh: this one may have run
      // long before handing back its promise, and a stale reading would cut the next deadline short.
      this.sink.forgetClock();
      this.sink.deadlines.add(this, this.#nextDue());
    }
  }

  /** An attempt's handler returned or settled: unless a deadline passed meanwhile, that is its result. */
  #settled(ctx: CallContext, result: unknown): void {
    if (ctx !== this.#ctx || this.#phase !== RUNNING) {
      this.#late(ctx, result);
      return;
    }
    if (this.#clocked) {
      if (this.slot >= 0) this.sink.deadlines.remove(this);
      // A handler that blocked the event loop past its deadline returns before the timer can fire.
      const now = this.sink.endClock();
      const fired = this.#expired(now);
      if (fired !== undefined) {
        this.#expire(fired, true);
        return;
      }
      // The pool starts the next call with this reading.
      this.#outcome(result, now);
      return;
    }
    this.#outcome(result, undefined);
  }

  /** Retry the failed attempt when the plan allows and time remains; otherwise answer. */
  #outcome(result: unknown, now: number | undefined): void {
    const plan = this.#retry;
    if (plan !== undefined) {
      const attempt = (this.#ctx as CallContext).attempt;
      const term = errorTerm(result);
      if (term !== NO_ERROR) {
        if (attempt < plan.attempts && isRetryable(plan, term, attempt)) {
          const wait = backoff(plan, attempt);
          const at = this.sink.deadlines.now();
          if (dueAt(at, wait) < dueAt(this.#firstStart, this.#total)) {
            this.#phase = BACKOFF;
            this.#track();
            const listener = this.env.onReport;
            if (listener !== undefined) {
              const { index, toolCallId, toolName } = this;
              deliver(listener, { type: "attempt_failed", index, toolCallId, toolName, attempt, error: term, retryIn: wait });
            }
            if (this.#phase === BACKOFF) this.sink.deadlines.add(this, dueAt(at, wait));
            return;
          }
        }
        result = withAttempts(result, term, attempt);
      }
    }
    this.#finish(result, now);
  }

  /** Which deadline has passed at `now`, tested with the very sums {@link CallRun.#nextDue} sets. */
  #expired(now: number): Deadline | undefined {
    const limits = this.#limits;
    if (now >= dueAt(this.#attemptStart, limits.timeout)) return "toolTimeout";
    if (now >= dueAt(this.#lastActive, limits.idleTimeout)) return "toolIdleTimeout";
    if (this.#retry !== undefined && now >= dueAt(this.#firstStart, this.#total)) return "totalTimeout";
    return undefined;
  }

  #nextDue(): number {
    const total = this.#retry === undefined ? Infinity : dueAt(this.#firstStart, this.#total);
    const limits = this.#limits;
    return Math.min(dueAt(this.#attemptStart, limits.timeout), dueAt(this.#lastActive, limits.idleTimeout), total);
  }

  /** A deadline passed: abort the attempt and answer `timeout` (or retry it); a late result is ignored. */
  #expire(fired: Deadline, settled: boolean): void {
    const ctx = this.#ctx as CallContext;
    const facts = {
      toolTimeout: this.#limits.timeout,
      toolIdleTimeout: this.#limits.idleTimeout,
      totalTimeout: this.#retry === undefined ? Infinity : this.#total,
    };
    const timeout = deadlineError(this, fired, facts, settled);
    // Recorded before the abort: an executor may say the attempt's fate from its abort listener.
    if (!settled) this.#abandon(ctx, "timeout");
    CallContext.abort(ctx, timeout);
    if (fired === "totalTimeout") this.#finish(withAttempts(error(timeout), timeout, ctx.attempt));
    else this.#outcome(error(timeout), undefined);
  }

  #abandon(ctx: CallContext, why: "timeout" | "cancelled"): void {
    if (this.env.onReport === undefined) return;
    const abandoned: Abandoned = { ctx, at: this.sink.deadlines.now(), why, grace: undefined, reported: false };
    this.#abandoned ??= [];
    this.#abandoned.push(abandoned);
    abandoned.grace = this.sink.watch(this, abandoned);
  }

  /** An attempt's executor said what became of it (`reportFate`): report it, if the runner abandoned it and has not reported it yet. */
  fated(ctx: CallContext, fate: ExecutorFate): void {
    const abandoned = this.#unreported(ctx);
    const listener = this.env.onReport;
    if (abandoned !== undefined && listener !== undefined) deliver(listener, fated(this.#base(), abandoned, fate, this.sink.deadlines.now()));
  }

  /** An attempt settled after the runner stopped waiting for it: report it, once. */
  #late(ctx: CallContext, result: unknown): void {
    const abandoned = this.#unreported(ctx);
    const listener = this.env.onReport;
    if (abandoned !== undefined && listener !== undefined) deliver(listener, settledLate(this.#base(), abandoned, result, this.sink.deadlines.now()));
  }

  /** The abandoned attempt of `ctx`, now marked reported, or `undefined` when there is nothing (more) to report on it. */
  #unreported(ctx: CallContext): Abandoned | undefined {
    const abandoned = this.#abandoned?.find((a) => a.ctx === ctx);
    if (abandoned === undefined || abandoned.reported || this.env.onReport === undefined) return undefined;
    abandoned.reported = true;
    abandoned.grace?.unsubscribe();
    abandoned.grace = undefined;
    return abandoned;
  }

  #base(): CallReportBase {
    return { index: this.index, toolCallId: this.toolCallId, toolName: this.toolName };
  }

  /**
   * The stream closed while the handler ran synchronously (it, or something it called, let go
   * of the stream). The pool could not reach this call yet, so abort it here.
   */
  #abandonIfClosed(ctx: CallContext, returned: unknown): boolean {
    if (!this.sink.closed) return false;
    this.#phase = DONE;
    CallContext.abort(ctx, this.sink.closeReason);
    if (isThenable(returned)) settle(returned, undefined, ignore, ignore);
    return true;
  }

  #track(): void {
    if (!this.#tracked) {
      this.#tracked = true;
      this.sink.track(this);
    }
  }

  #finish(returned: unknown, now?: number): void {
    this.#phase = DONE;
    if (this.slot >= 0) this.sink.deadlines.remove(this);
    const [completed, tail] = outcomeOf(returned, this, this.env);
    this.sink.next(completed);
    const { tool } = this;
    // The model reads at most the budget; the completed event above keeps the whole value for the host.
    const budget = tool?.control === undefined ? this.env.outputBudget : (controlOf(tool)?.outputBudget ?? this.env.outputBudget);
    this.sink.next(budget === Infinity ? tail : tailWithinBudget(tail, budget));
    this.sink.done(this, this.#tracked, now);
  }
}

function ignore(): void {}
