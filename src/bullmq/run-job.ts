import { EmptyError } from "rxjs";
import {
  defaultExecutor,
  type CallReport,
  type RunOptions,
  type ToolExecutor,
  type ToolExecutionCompleted,
  type ToolResolver,
  type Tool,
  type ToolResultEncoder,
  type HandlerResult,
} from "../index.js";
import { type CallEvents, checked, exitResult, preparedCall, REMOTE_ATTEMPT, type RunOfPrepared } from "../internal.js";
import { encodeThrown } from "../node/index.js";
import type { JobAnswer, RemoteCall } from "./call-job.js";
import { remoteContextExecutor, type Settlement } from "./remote-context.js";
import { encodeJobResult } from "./result-codec.js";

/** What the worker decided for everything the job runs under. */
export interface JobEnv {
  readonly tools: readonly Tool[] | ToolResolver;
  readonly executor: ToolExecutor | undefined;
  readonly validateArguments: boolean;
  readonly context: unknown;
  /** How long an aborted handler may take to settle before the job ends anyway, in ms. */
  readonly settleGrace: number;
}

// The producer encodes; encoding here too would be wasted work.
const NO_ENCODING: ToolResultEncoder = { encode: () => "", encodeError: () => "" };

/** Runs one job of a worker: see {@link callJobRunner}. */
export type CallJobRunner = (job: RemoteCall, signal: AbortSignal, onProgress: (update: unknown) => void) => Promise<JobAnswer>;

/**
 * The runner of a worker's jobs: each runs its one call through the same runner as in-process
 * (validation, executor, the tool's checks), with `signal` for cancels, and answers what the
 * producer decodes. The options and the tools' index are resolved here, once per worker; a job
 * brings only its own signal, deadline, ids and executor's context. A job ends only when the
 * handler has settled, or `settleGrace` after it was aborted. A handler that settles within that
 * grace after a cancel is answered with its own result, as the runner reports an in-process one
 * that settles late (`late_settlement`, `settled: true`): the producer's runner stopped waiting
 * for it, and reports it so.
 *
 * @throws {TypeError} as `streamToolCalls` does for the worker's options.
 */
export function callJobRunner(env: JobEnv): CallJobRunner {
  const runs = preparedCall(env.tools, {
    toolResultEncoder: NO_ENCODING,
    validateArguments: env.validateArguments,
    context: env.context,
    maxConcurrency: 1,
    onUnknownTool: "answer",
    // One attempt, numbered by the producer, which owns retries and the tool's deadlines and ran the hooks.
    [REMOTE_ATTEMPT]: true,
  } as RunOptions);
  const inner = env.executor ?? defaultExecutor;
  return async (job, signal, onProgress) => {
    const remaining = job.deadline === undefined ? Infinity : job.deadline - Date.now();
    if (remaining <= 0) return { cancelled: "the job's deadline passed before it started", started: false };
    const tracked = remoteContextExecutor(inner, job.idempotencyKey, job.attempt, job.call, (update) => onProgress({ malformed: encodeThrown(update) }));
    // A repair's or a hook's arguments are validated as the model's would be (no provider text to parse).
    const call = job.input === job.call.arguments ? job.call : { id: job.call.id, name: job.call.name, arguments: job.input };
    const run = completionOf((out) =>
      runs(
        call,
        {
          executor: tracked.executor,
          signal,
          // No deadline is no clock: the runner reads the clock only for a call with a deadline.
          timeout: remaining,
          sessionId: job.sessionId,
          requestId: job.requestId,
          onReport: (report) => reportProgress(report, onProgress),
        } satisfies RunOfPrepared,
        out,
      ),
    );
    try {
      let completed: ToolExecutionCompleted;
      try {
        completed = await run.completed;
      } catch (reason) {
        const late = await settledWithin(tracked.settled(), env.settleGrace);
        if (late !== undefined) return { result: encodeJobResult(lateResult(late, job.call), job.call.name, job.call.id) };
        return { cancelled: reason instanceof Error ? reason.message : String(reason), started: tracked.started() };
      }
      // A handler past the job's deadline is answered `timeout` but may still run: wait for it a while.
      if (!tracked.idle()) await settledWithin(tracked.settled(), env.settleGrace);
      return { result: encodeJobResult(completed.result, completed.toolName, completed.toolCallId) };
    } finally {
      run.stop();
    }
  };
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

/**
 * The run's completed event, without ending the run there: the run completes on its own right
 * after it (or ends with the job's signal), so `stop` only lets go of the signal's listener then.
 * Ending the run at the event instead would abort the finished call and build an abort reason, a
 * `DOMException` with its stack, for every job. `open` starts the run with where its events go,
 * and returns its teardown; a throw of it (a malformed call) is thrown here. Exported for its tests.
 */
export function completionOf(open: (out: CallEvents) => () => void): { readonly completed: Promise<ToolExecutionCompleted>; stop(): void } {
  let ended = false;
  let answered = false;
  let stopped = false;
  let resolve!: (event: ToolExecutionCompleted) => void;
  let reject!: (reason: unknown) => void;
  const completed = new Promise<ToolExecutionCompleted>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  const out: CallEvents = {
    get closed() {
      return ended;
    },
    next(event) {
      if (ended || event.type !== "tool_execution_completed") return;
      answered = true;
      resolve(event);
    },
    error(reason) {
      if (ended) return;
      ended = true;
      reject(reason);
    },
    // Only a run that ended without its event: RxJS' EmptyError formats a stack trace as it is
    // built, which every job paid for (about half of the worker's CPU over bare BullMQ's) when
    // it was built, and thrown away, after each answered call.
    complete() {
      if (ended) return;
      ended = true;
      if (!answered) reject(new EmptyError());
    },
  };
  const teardown = open(out);
  return {
    completed,
    stop() {
      if (stopped) return;
      stopped = true;
      ended = true;
      teardown();
    },
  };
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
