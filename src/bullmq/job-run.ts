import { EmptyError } from "rxjs";
import type { CallReport, HandlerContext, HandlerResult, Tool, ToolExecutionCompleted, ToolExecutor } from "../index.js";
import { type CallEvents, checked, exitResult } from "../internal.js";
import { encodeThrown } from "../node/index.js";
import type { JobAnswer, RemoteCall } from "./call-job.js";
import { maybeThenable, RemoteContext, type Settlement } from "./remote-context.js";
import { encodeJobResult } from "./result-codec.js";

/**
 * One job's run of its call on a worker, as one object: the executor the runner calls (handing
 * the inner one a {@link RemoteContext} and keeping the handler's own settlement), where the
 * runner's events go, and where its progress and log reports go. A job of a handler that returns
 * without a promise is answered as the run returns, with no promise, closure or await of its own
 * (see {@link JobRun.answer}): the closures, promise and async frames this replaced were over
 * half of what such a job allocated beyond BullMQ's own.
 *
 * The job must not end (and free its slot and leases) while the handler still runs, even after
 * the runner answered for it, and a handler that settles after a cancel is answered with what it
 * settled with. The run's end is not the answer: the run completes on its own right after its
 * completed event, so {@link stop} only lets go of the signal's listener then; ending it at the
 * event would abort the finished call and build an abort reason, a `DOMException` with its
 * stack, for every job.
 */
export class JobRun implements ToolExecutor, CallEvents {
  readonly #inner: ToolExecutor;
  readonly #job: RemoteCall;
  readonly #onProgress: (update: unknown) => void;
  /** The run's teardown, once it returned it. */
  #teardown: (() => void) | undefined;
  #ended = false;
  #stopped = false;
  #completed: ToolExecutionCompleted | undefined;
  /** The run's error, when it failed before its completed event. */
  #failure: { readonly reason: unknown } | undefined;
  /** Made only when the answer is awaited before it came. */
  #waiter: { resolve(event: ToolExecutionCompleted): void; reject(reason: unknown): void } | undefined;
  /** The handler's settlement, once it returned a promise. */
  #running: Promise<Settlement> | undefined;
  /** A handler that returned without a promise: settled at once, and no promise is made for it. */
  #returnedNow: Settlement | undefined;
  #settled = false;
  /** The runner's progress and log reports (its `onReport`), for the job's progress channel. */
  readonly report: (report: CallReport) => void;

  constructor(inner: ToolExecutor, job: RemoteCall, onProgress: (update: unknown) => void) {
    this.#inner = inner;
    this.#job = job;
    this.#onProgress = onProgress;
    this.report = (report) => reportProgress(report, onProgress);
  }

  /** The teardown of the run opened with this as its executor and events, which {@link stop} calls. */
  opened(teardown: () => void): void {
    this.#teardown = teardown;
  }

  /** Run the handler through the inner executor with the remote context, keeping its settlement. */
  execute(tool: Tool, args: Record<string, unknown>, ctx: HandlerContext): HandlerResult | Promise<HandlerResult> {
    const remote = new RemoteContext(ctx, this.#job.call, this.#job.idempotencyKey, this.#job.attempt, this);
    const returned = this.#inner.execute(tool, args, remote);
    if (!maybeThenable(returned)) {
      this.#returnedNow = { value: returned };
      this.#settled = true;
      return returned;
    }
    this.#running = Promise.resolve(returned).then(
      (value): Settlement => {
        this.#settled = true;
        return { value };
      },
      (thrown: unknown): Settlement => {
        this.#settled = true;
        return { thrown };
      },
    );
    return returned;
  }

  /** A progress update the runner cannot take: the producer's runner drops it and reports it to its host, as an in-process call's would be. Reported on the worker, the error would be rethrown on its own task and end the worker's process. */
  malformed(update: unknown): void {
    this.#onProgress({ malformed: encodeThrown(update) });
  }

  /** The run is over for this job: events from now on are not wanted. */
  get closed(): boolean {
    return this.#ended;
  }

  /** The run's events: only its completed event is the job's answer. */
  next(event: Parameters<CallEvents["next"]>[0]): void {
    if (this.#ended || event.type !== "tool_execution_completed" || this.#completed !== undefined) return;
    this.#completed = event;
    this.#waiter?.resolve(event);
  }

  /** The run failed (the job's signal, a throw of the runner): the answer unless the completed event came first. */
  error(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#completed !== undefined) return;
    this.#failure = { reason };
    this.#waiter?.reject(reason);
  }

  /** The run ended: an error for the job only when it ended without its completed event. */
  complete(): void {
    if (this.#ended) return;
    this.#ended = true;
    // Only a run that ended without its event builds one: RxJS' EmptyError formats a stack trace
    // as it is built, which every job paid for (about half of the worker's CPU over bare
    // BullMQ's) when it was built, and thrown away, after each answered call.
    if (this.#completed !== undefined) return;
    this.#failure = { reason: new EmptyError() };
    this.#waiter?.reject(this.#failure.reason);
  }

  /** The run's completed event, or its error (`EmptyError` for a run that ended without one). */
  completion(): Promise<ToolExecutionCompleted> {
    if (this.#completed !== undefined) return Promise.resolve(this.#completed);
    if (this.#failure !== undefined) return Promise.reject(this.#failure.reason);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** Let go of the run: its teardown, once; a run still going is cancelled by it. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#ended = true;
    this.#teardown?.();
  }

  /** Whether a handler started (else the job was cancelled before it ran). */
  started(): boolean {
    return this.#running !== undefined || this.#returnedNow !== undefined;
  }

  /** No handler started, or it has settled. Read after the runner answered: its handler is almost always settled by then. */
  idle(): boolean {
    return this.#running === undefined || this.#settled;
  }

  /** The handler's settlement, once it settles (`undefined` when none started). */
  settled(): Promise<Settlement | undefined> {
    return this.#running ?? Promise.resolve(this.#returnedNow);
  }

  /**
   * The job's answer: at once when the run answered as it was opened and its handler has settled
   * (a handler that returned without a promise), else once it answers or ends. A handler still
   * running when the runner answered (past the job's deadline) or ended (a cancel) is waited for
   * up to `grace` ms; one that settles within it after a cancel is answered with its own result,
   * as the runner reports an in-process one that settles late.
   */
  answer(grace: number): JobAnswer | Promise<JobAnswer> {
    const completed = this.#completed;
    if (completed === undefined || !this.idle()) return this.#later(grace);
    this.stop();
    return { result: encodeJobResult(completed.result, completed.toolName, completed.toolCallId) };
  }

  async #later(grace: number): Promise<JobAnswer> {
    const call = this.#job.call;
    try {
      let completed: ToolExecutionCompleted;
      try {
        completed = await this.completion();
      } catch (reason) {
        const late = await settledWithin(this.settled(), grace);
        if (late !== undefined) return { result: encodeJobResult(lateResult(late, call), call.name, call.id) };
        return { cancelled: reason instanceof Error ? reason.message : String(reason), started: this.started() };
      }
      // A handler past the job's deadline is answered `timeout` but may still run: wait for it a while.
      if (!this.idle()) await settledWithin(this.settled(), grace);
      return { result: encodeJobResult(completed.result, completed.toolName, completed.toolCallId) };
    } finally {
      this.stop();
    }
  }
}

/** A handler's progress and log lines, on the job's progress channel. */
function reportProgress(report: CallReport, onProgress: (update: unknown) => void): void {
  if (report.type === "progress") {
    const { progress, total, message, data: partial } = report;
    onProgress({ progress, total, message, data: partial });
  } else if (report.type === "log") {
    // A log line rides the job's progress channel too, marked so the producer tells it apart.
    const { level, data: logged, logger } = report;
    onProgress({ log: { level, data: logged, ...(logger === undefined ? {} : { logger }) } });
  }
}

/** What the runner makes of an executor's answer (`checked`, or `handler_exit` for its throw), for one that came after the run ended. */
function lateResult(late: Settlement, call: { readonly id: string; readonly name: string }): HandlerResult {
  if ("thrown" in late) return exitResult({ toolName: call.name, toolCallId: call.id }, late.thrown) as HandlerResult;
  return checked(late.value, call.name, call.id);
}

/** The handler's settlement, or `undefined` when it has not settled within `ms`. */
function settledWithin<T>(settled: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([settled, grace]).finally(() => clearTimeout(timer));
}
