import { pauseDeadline } from "../internal.js";
import type { PoolJob } from "./pool-job.js";
import type { PoolThread } from "./pool-thread.js";

/**
 * Where a pool's calls stand on its threads, and how many: a thread's call (running, or
 * draining after its signal aborted) and the one posted ahead behind it. Each move of a call on
 * or off a thread goes through here, so the counts `stats()` and the pump read stay true.
 */
export class PoolLedger {
  running = 0;
  draining = 0;
  /** Calls posted to a busy thread, not taken yet (see `JobState`). */
  ahead = 0;

  constructor(readonly grace: number) {}

  /** Post `job` behind the call `thread` runs, its deadline stopped until the thread takes it. */
  postAhead(job: PoolJob, thread: PoolThread): void {
    job.state = "ahead";
    job.thread = thread;
    thread.next = job;
    thread.postedAhead(job.id);
    this.ahead++;
    job.resume = pauseDeadline(job.ctx);
  }

  /** The call posted ahead to `thread`, if any, no longer counted there. */
  unpost(thread: PoolThread): PoolJob | undefined {
    const job = thread.next as PoolJob | undefined;
    if (job === undefined) return undefined;
    thread.next = undefined;
    this.ahead--;
    return job;
  }

  /** `thread` takes `job`: its deadline starts again, or, its signal aborted while it waited ahead, its grace period starts. */
  take(job: PoolJob, thread: PoolThread): void {
    job.thread = thread;
    thread.job = job;
    const resume = job.resume;
    job.resume = undefined;
    if (job.state === "recalled") {
      job.state = "draining";
      this.draining++;
      job.startGrace(thread, this.grace);
      return;
    }
    job.state = "running";
    this.running++;
    resume?.();
  }

  /** A running call's signal aborted: it drains, and its thread is terminated if it has not settled within the grace period. */
  drain(job: PoolJob, thread: PoolThread): void {
    job.state = "draining";
    this.running--;
    this.draining++;
    job.startGrace(thread, this.grace);
  }

  /**
   * Take back the call posted ahead to `thread`, if the thread has not claimed it (see
   * `WorkerSetup.claim`): then it is off the thread, its deadline still stopped, and never starts there.
   */
  takeBack(thread: PoolThread): PoolJob | undefined {
    const job = thread.next as PoolJob | undefined;
    if (job === undefined || !thread.takeBack(job.id)) return undefined;
    this.unpost(thread);
    job.thread = undefined;
    return job;
  }

  /** Take back the oldest call posted ahead to one of `threads` that its thread has not claimed, if any, for an idle thread. */
  steal(threads: Iterable<PoolThread>): PoolJob | undefined {
    const waiting = [...threads].filter((thread) => (thread.next as PoolJob | undefined)?.state === "ahead");
    waiting.sort((a, b) => (a.next as PoolJob).id - (b.next as PoolJob).id);
    for (const thread of waiting) {
      const job = this.takeBack(thread);
      if (job !== undefined) return job;
    }
    return undefined;
  }

  /** A call posted ahead, claimed by its thread, had its signal abort: its grace period starts when the thread is heard taking it. */
  recall(job: PoolJob): void {
    job.state = "recalled";
    job.recalled = true;
  }

  /** The call leaves its thread: it no longer counts as running or draining. */
  free(job: PoolJob): void {
    if (job.state === "running") this.running--;
    else if (job.state === "draining") this.draining--;
    if (job.thread !== undefined) job.thread.job = undefined;
  }
}
