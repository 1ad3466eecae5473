import type { Job } from "bullmq";
import { type JobAnswer, jobReturnOf, readCallJob, type RemoteCall } from "./call-job.js";
import type { JobHeartbeats } from "./job-heartbeats.js";
import type { RedisLanes } from "./lanes.js";
import type { CallJobReturn, CallJobReturnV1 } from "./protocol.js";
import { JobSignal } from "./job-signal.js";
import type { CallJobRunner } from "./run-job.js";
import type { WorkerCancels } from "./worker-cancels.js";

/** What a worker's jobs share: see {@link jobProcessor}. */
export interface JobProcessorDeps {
  readonly runJob: CallJobRunner;
  readonly heartbeats: Pick<JobHeartbeats, "start" | "stop">;
  readonly lanes: Pick<RedisLanes, "hold" | "release" | "forget">;
  readonly cancels: WorkerCancels;
  /** The job's cancel marker, read when the cancel channel cannot be trusted. */
  readonly readMarker: (jobId: string) => Promise<string | null>;
  /** The handlers running now, settled or not: what the worker's `close` waits for when Redis is gone. */
  readonly handlers: Set<Promise<unknown>>;
}

/** What BullMQ hands the processor; only what a call job needs of it. */
export type CallJob = Pick<Job, "id" | "name" | "data" | "updateProgress">;

/** A job's return value, as BullMQ stores it for the producer. */
export type JobReturn = CallJobReturn | CallJobReturnV1;

/**
 * The processor a worker hands BullMQ: one job's call from its take to its return value. A job
 * whose call is answered as it is opened (a handler that returns without a promise), and that
 * holds no lanes, returns its value itself, without a promise or an await: BullMQ awaits the
 * processor's return (`await this.callProcessJob(…)` in its `processJob`), a plain value as a
 * promise, so every hop of toolrx's own there was one BullMQ's own processor call did not need.
 * Everything else (a handler still running, a marker to read, leases to free) returns a promise.
 */
export function jobProcessor(deps: JobProcessorDeps): (job: CallJob) => JobReturn | Promise<JobReturn> {
  const { runJob, heartbeats, lanes, cancels, readMarker, handlers } = deps;

  /** The job's run, in `handlers` while its handler may run so that `close` can wait for it (`later` takes it out). */
  const run = (job: CallJob, call: RemoteCall, signal: AbortSignal): JobAnswer | Promise<JobAnswer> => {
    const answer = runJob(call, signal, (update) => {
      job.updateProgress(update as object).catch(() => undefined);
    });
    if (answer instanceof Promise) handlers.add(answer);
    return answer;
  };

  // A cancel that lost the race with this job's take is published after it and heard on the
  // channel (perhaps before BullMQ handed the job over), unless the subscription was down
  // lately: then the marker says it. Only the run is in `handlers`, never a marker read Redis
  // may never answer.
  const afterMarker = async (job: CallJob, call: RemoteCall, signal: AbortSignal): Promise<JobAnswer> => {
    const marker = await readMarker(job.id as string);
    if (marker !== null) return { cancelled: marker, started: false };
    const answer = run(job, call, signal);
    try {
      return await answer;
    } finally {
      handlers.delete(answer as Promise<JobAnswer>);
    }
  };

  const end = (jobId: string): void => {
    heartbeats.stop(jobId);
    cancels.end(jobId);
  };

  const later = async (jobId: string, call: RemoteCall, answer: Promise<JobAnswer>): Promise<JobReturn> => {
    try {
      return jobReturnOf(await answer, call.v);
    } finally {
      handlers.delete(answer);
      end(jobId);
      await lanes.release(jobId, call.lanes);
    }
  };

  return (job) => {
    const jobId = job.id as string;
    const call = readCallJob(job.name, jobId, job.data);
    lanes.hold(jobId, call.lanes);
    const cancelled = cancels.take(jobId);
    const signal = new JobSignal();
    let answer: JobAnswer | Promise<JobAnswer>;
    try {
      if (cancelled !== undefined) answer = { cancelled, started: false };
      else if (cancels.channelTrusted()) answer = run(job, call, signal.asAbortSignal());
      else answer = afterMarker(job, call, signal.asAbortSignal());
    } catch (thrown) {
      answer = Promise.reject(thrown);
    }
    if (answer instanceof Promise) {
      // Only a job that runs on past this task can hear a cancel, or live to its heartbeat's first
      // write (the next renewal of all running jobs', within a third of its life): the producer
      // knows this worker has it from then, and notices if it dies.
      cancels.track(jobId, signal);
      heartbeats.start(jobId, call.heartbeat);
      return later(jobId, call, answer);
    }
    const value = jobReturnOf(answer, call.v);
    if (call.lanes.length === 0) {
      lanes.forget(jobId);
      return value;
    }
    return lanes.release(jobId, call.lanes).then(() => value);
  };
}
