import { defaultExecutor, type RunOptions, type ToolExecutor, type ToolResolver, type Tool, type ToolResultEncoder } from "../index.js";
import { preparedCall, REMOTE_ATTEMPT, type RunOfPrepared } from "../internal.js";
import type { JobAnswer, RemoteCall } from "./call-job.js";
import { JobRun } from "./job-run.js";

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

/** Runs one job of a worker: see {@link callJobRunner}. An answer without a promise is one the run gave as it was opened. */
export type CallJobRunner = (job: RemoteCall, signal: AbortSignal, onProgress: (update: unknown) => void) => JobAnswer | Promise<JobAnswer>;

/**
 * The runner of a worker's jobs: each runs its one call through the same runner as in-process
 * (validation, executor, the tool's checks), with `signal` for cancels, and answers what the
 * producer decodes. The options and the tools' index are resolved here, once per worker; a job
 * brings only its own signal, deadline, ids and executor's context. A job ends only when the
 * handler has settled, or `settleGrace` after it was aborted. A handler that settles within that
 * grace after a cancel is answered with its own result, as the runner reports an in-process one
 * that settles late (`late_settlement`, `settled: true`): the producer's runner stopped waiting
 * for it, and reports it so. A handler that returns without a promise is answered without one
 * (see {@link JobRun.answer}).
 *
 * @throws {TypeError} as `streamToolCalls` does for the worker's options; a job's malformed call is thrown by its run.
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
  return (job, signal, onProgress) => {
    const remaining = job.deadline === undefined ? Infinity : job.deadline - Date.now();
    if (remaining <= 0) return { cancelled: "the job's deadline passed before it started", started: false };
    const run = new JobRun(inner, job, onProgress);
    // A repair's or a hook's arguments are validated as the model's would be (no provider text to parse).
    const call = job.input === job.call.arguments ? job.call : { id: job.call.id, name: job.call.name, arguments: job.input };
    run.opened(
      runs(
        call,
        {
          executor: run,
          signal,
          // No deadline is no clock: the runner reads the clock only for a call with a deadline.
          timeout: remaining,
          sessionId: job.sessionId,
          requestId: job.requestId,
          onReport: run.report,
        } satisfies RunOfPrepared,
        run,
      ),
    );
    return run.answer(env.settleGrace);
  };
}
