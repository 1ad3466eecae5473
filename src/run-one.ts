import type { Unsubscribable } from "rxjs";
import { CallContext } from "./call-context.js";
import { checkArguments, type CheckedArguments } from "./check-arguments.js";
import type { ToolEvent } from "./events.js";
import type { RunEnv } from "./options.js";
import { outcomeOf } from "./outcome.js";
import { error, isThenable } from "./results.js";
import type { Tool } from "./tool.js";
import { isError, settle } from "./safe.js";
import type { CallIdentity, ToolCall } from "./tool-call.js";
import { ToolError } from "./tool-error.js";

/** Where a running call reports to: the stream that owns its concurrency slot. */
export interface CallSink {
  /** True once the stream is unsubscribed or failed: nothing more may start. */
  readonly closed: boolean;
  /** Why the stream closed: the signal's reason, an input error, or an unsubscribe AbortError. */
  readonly closeReason: unknown;
  next(event: ToolEvent): void;
  /** The call went asynchronous: it must be cancellable from now on. */
  track(run: CallRun): void;
  /** The `not_found` answer for a call whose tool the batch does not have. */
  notFound(who: CallIdentity): ToolError;
  /** The call finished (its tail event is out); `tracked` says whether `track` was called. */
  done(run: CallRun, tracked: boolean): void;
}

/**
 * One call from `started` to its tail event: validate, execute, enforce the deadline, apply the
 * policy, encode. A call that finishes synchronously never allocates a timer, a controller or a
 * closure; only the asynchronous path pays for them.
 */
export class CallRun implements CallIdentity {
  readonly call: ToolCall;
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly tool: Tool | undefined;
  readonly env: RunEnv;
  readonly sink: CallSink;
  #ctx: CallContext | undefined;
  #timer: Unsubscribable | undefined;
  #tracked = false;
  #finished = false;

  constructor(call: ToolCall, index: number, tool: Tool | undefined, env: RunEnv, sink: CallSink) {
    this.call = call;
    this.index = index;
    this.toolCallId = call.id;
    this.toolName = call.name;
    this.tool = tool;
    this.env = env;
    this.sink = sink;
  }

  /** Emit `started` and run the call as far as it goes synchronously. */
  start(): void {
    const { call, tool, env } = this;
    this.sink.next({
      type: "tool_execution_started",
      index: this.index,
      toolCallId: this.toolCallId,
      toolName: this.toolName,
      arguments: call.arguments,
    });
    if (this.sink.closed) {
      // The consumer let go while seeing `started`: do not run a handler nobody waits for.
      this.#finished = true;
      return;
    }
    if (tool === undefined) {
      this.#finish(error(this.sink.notFound(this)));
      return;
    }
    if (!env.validate) {
      this.#execute(tool, call.arguments);
      return;
    }
    let checked: CheckedArguments | Promise<CheckedArguments>;
    try {
      checked = checkArguments(tool, call);
    } catch (cause) {
      this.#finish(error(new ToolError("handler_exit", { toolName: this.toolName, toolCallId: this.toolCallId, cause })));
      return;
    }
    if (isThenable(checked)) {
      this.#goAsync(false);
      settle(checked, this, (c) => this.#finished || this.#afterCheck(tool, c as CheckedArguments), this.#exitOnce);
      return;
    }
    this.#afterCheck(tool, checked);
  }

  /** Stop waiting for this call (unsubscribe or `opts.signal`): abort its handler, emit nothing. */
  cancel(reason: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#clearTimer();
    if (this.#ctx !== undefined) CallContext.abort(this.#ctx, reason);
  }

  #afterCheck(tool: Tool, checked: CheckedArguments): void {
    if (checked.ok) this.#execute(tool, checked.value);
    else this.#finish(error(checked.error));
  }

  #execute(tool: Tool, args: Record<string, unknown>): void {
    const ctx = (this.#ctx = new CallContext(this.call, this.env));
    let returned: unknown;
    try {
      returned = this.env.executor.execute(tool, args, ctx);
    } catch (cause) {
      if (this.#abandonIfClosed(ctx, undefined)) return;
      this.#exit(cause);
      return;
    }
    if (this.#abandonIfClosed(ctx, returned)) return;
    if (!isThenable(returned)) {
      this.#finish(returned);
      return;
    }
    this.#goAsync(true);
    // A custom executor's thenable may be hostile: a `then` that throws is that call's `handler_exit`.
    settle(returned, this, this.#finishOnce, this.#exitOnce);
  }

  #finishOnce(this: CallRun, result: unknown): void {
    if (!this.#finished) this.#finish(result);
  }

  #exitOnce(this: CallRun, cause: unknown): void {
    if (!this.#finished) this.#exit(cause);
  }

  /**
   * The stream closed while the handler ran synchronously (it, or something it called, let go
   * of the stream). The pool could not reach this call yet, so abort it here.
   */
  #abandonIfClosed(ctx: CallContext, returned: unknown): boolean {
    if (!this.sink.closed) return false;
    this.#finished = true;
    CallContext.abort(ctx, this.sink.closeReason);
    if (isThenable(returned)) settle(returned, undefined, ignore, ignore);
    return true;
  }

  /** The executor itself failed: `handler_exit`, since a handler's own throws were its to convert. */
  #exit(thrown: unknown): void {
    const cause = isError(thrown) ? thrown : { thrown };
    this.#finish(error(new ToolError("handler_exit", { toolName: this.toolName, toolCallId: this.toolCallId, cause })));
  }

  /**
   * The call went asynchronous: make it cancellable, and when its handler is what runs, start
   * the deadline (it counts from the handler's start, so async validation is not on its clock).
   */
  #goAsync(handlerRunning: boolean): void {
    if (!this.#tracked) {
      this.#tracked = true;
      this.sink.track(this);
    }
    const { timeout, scheduler } = this.env;
    if (handlerRunning && timeout !== Infinity) this.#timer = scheduler.schedule(onDeadline, timeout, this);
  }

  /** The deadline passed: abort the handler and answer `timeout`; a late result is ignored. */
  timedOut(): void {
    if (this.#finished) return;
    this.#timer = undefined;
    const timeout = new ToolError("timeout", {
      message: `tool ${this.toolName} timed out after ${this.env.timeout} ms`,
      toolName: this.toolName,
      toolCallId: this.toolCallId,
      metadata: { toolTimeout: this.env.timeout },
    });
    if (this.#ctx !== undefined) CallContext.abort(this.#ctx, timeout);
    this.#finish(error(timeout));
  }

  #finish(returned: unknown): void {
    this.#finished = true;
    this.#clearTimer();
    const [completed, tail] = outcomeOf(returned, this, this.env);
    this.sink.next(completed);
    this.sink.next(tail);
    this.sink.done(this, this.#tracked);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) {
      this.#timer.unsubscribe();
      this.#timer = undefined;
    }
  }
}

function ignore(): void {}

function onDeadline(this: unknown, run: CallRun | undefined): void {
  run?.timedOut();
}
