import type { HandlerContext, HandlerResult, Tool } from "../index.js";
import { pauseDeadline } from "../internal.js";
import { encodeThrown } from "./codec.js";
import type { IsolatedHandler } from "./isolated-tool.js";
import { HandlerNumbers } from "./pool-handlers.js";
import { PoolJob } from "./pool-job.js";
import type { PoolPlan } from "./pool-options.js";
import type { WorkerPoolStats } from "./pool-stats.js";
import type { PoolThread } from "./pool-thread.js";
import { ThreadStarts, type StartOwner } from "./pool-starts.js";
import { isResult, type FromWorker } from "./protocol.js";

/**
 * The machinery behind a `WorkerPool`: calls queued for a thread, threads started up to
 * `size + spares`, a call's abort passed on and its thread terminated after the grace period,
 * and each thread's news (ready, a result, progress, its death) turned into the call's answer.
 */
export class PoolScheduler implements StartOwner {
  readonly #plan: PoolPlan;
  readonly #threads = new Set<PoolThread>();
  #idle: PoolThread[] = [];
  #queue: PoolJob[] = [];
  #running = 0;
  #draining = 0;
  /** Calls posted to a busy thread, not taken yet (see `JobState`). */
  #ahead = 0;
  #ids = 0;
  /** A thread failed to start: start no more until the next call asks. */
  #broken = false;
  #closed = false;
  readonly #starts: ThreadStarts;
  readonly #numbers = new HandlerNumbers();

  constructor(plan: PoolPlan) {
    this.#plan = plan;
    this.#starts = new ThreadStarts(plan, this);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queue a call of `tool`, whose handler is `handler`, for a thread; `resolve` takes its answer. */
  submit(tool: Tool, args: Record<string, unknown>, ctx: HandlerContext, handler: IsolatedHandler, resolve: (result: HandlerResult) => void): void {
    const job = new PoolJob(++this.#ids, tool, args, ctx, handler, resolve, (j) => this.#abort(j, j.abortReason));
    if (this.#closed) job.exit("the worker pool is closed");
    else if (job.abortedEarly) job.notStarted("before it reached a worker thread");
    else {
      this.#queue.push(job);
      this.#broken = false;
      this.#pump();
    }
  }

  warm(): Promise<void> {
    this.#broken = false;
    this.#pump();
    return this.#starts.settled();
  }

  stats(): WorkerPoolStats {
    const [threads, queued] = [this.#threads.size, this.#queue.length + this.#ahead];
    return { threads, starting: this.#starts.starting, idle: this.#idle.length, running: this.#running, draining: this.#draining, queued };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.exit("the worker pool closed");
    const closing = [...this.#threads].map((thread) => thread.kill(new Error("the worker pool closed")));
    this.#starts.done(true);
    await Promise.all(closing);
  }

  started(thread: PoolThread): void {
    this.#threads.add(thread);
  }

  ready(thread: PoolThread): void {
    this.#starts.starting--;
    this.#idle.push(thread);
    this.#pump();
    this.#starts.done();
  }

  message(thread: PoolThread, message: FromWorker): void {
    const job = thread.job as PoolJob | undefined;
    if (job === undefined) return;
    if (isResult(message)) {
      if (message[0] !== job.id) return;
      this.#free(job);
      job.answer(message);
    } else {
      if (message.type === "ready") return;
      if (message.id !== job.id) {
        if (message.type === "unstarted") this.#unposted(thread, message.id);
        return;
      }
      if (message.type !== "unstarted") {
        job.reported(message);
        return;
      }
      this.#free(job);
      job.notStarted(job.recalled ? "while it waited on a busy worker thread" : "while its worker thread loaded the handler's module");
    }
    // The thread answered the call before `next`, so it has taken `next` now.
    const next = this.#unpost(thread);
    if (next !== undefined) this.#take(next, thread);
    else {
      thread.idle();
      this.#idle.push(thread);
    }
    this.#pump();
  }

  /** The thread gave back the call it held ahead: unstarted, so it waits for a thread again, or is answered if its signal aborted. */
  #unposted(thread: PoolThread, id: number): void {
    if ((thread.next as PoolJob | undefined)?.id !== id) return;
    this.#requeue(this.#unpost(thread) as PoolJob);
    this.#pump();
  }

  /** The call posted ahead to `thread`, if any, no longer counted there. */
  #unpost(thread: PoolThread): PoolJob | undefined {
    const job = thread.next as PoolJob | undefined;
    if (job === undefined) return undefined;
    thread.next = undefined;
    this.#ahead--;
    return job;
  }

  /** A call posted ahead that never started goes back to the front of the queue (or is answered, if its signal aborted meanwhile). */
  #requeue(job: PoolJob): void {
    job.thread = undefined;
    if (job.state === "recalled") {
      job.notStarted("while it waited on a busy worker thread");
      return;
    }
    job.state = "queued";
    this.#queue.unshift(job);
  }

  exited(thread: PoolThread, why: Error): void {
    this.#threads.delete(thread);
    if (!thread.started) {
      this.startFailed(why);
      return;
    }
    const at = this.#idle.indexOf(thread);
    if (at >= 0) this.#idle.splice(at, 1);
    const job = thread.job as PoolJob | undefined;
    const next = this.#unpost(thread);
    if (next !== undefined) {
      // The exit comes after the thread's last messages (see PoolThread.kill): not having heard
      // the answer before `next`, the thread had not started it; it waits for another thread.
      if (this.#closed) next.exit("the worker pool closed");
      else this.#requeue(next);
    }
    if (job !== undefined) {
      this.#free(job);
      job.threadGone(why, this.#plan.grace);
    }
    this.#pump();
  }

  /** A thread died before it was ready (its preloads throw, or it cannot start at all): fail the waiting calls, start no more for now. */
  startFailed(why: Error): void {
    this.#starts.starting--;
    if (!this.#closed) {
      this.#broken = true;
      for (const waiting of this.#queue.splice(0)) waiting.exit(`no worker thread could start: ${why.message}`, why);
    }
    this.#starts.done();
  }

  /** Start queued calls on idle threads, post the rest ahead to busy ones, then start threads up to size + spares. */
  #pump(): void {
    const plan = this.#plan;
    while (this.#queue.length > 0 && this.#running < plan.size && this.#idle.length > 0) {
      this.#dispatch(this.#queue.shift() as PoolJob, this.#idle.pop() as PoolThread);
    }
    if (this.#queue.length > 0 && plan.ahead > 0) {
      for (const thread of this.#threads) {
        const job = thread.job as PoolJob | undefined;
        if (job?.state === "running" && thread.next === undefined) this.#dispatch(this.#queue.shift() as PoolJob, thread);
        if (this.#queue.length === 0) break;
      }
    }
    if (this.#closed || this.#broken) return;
    // A draining thread still counts: most handlers settle on their signal, and its spare takes
    // the next call meanwhile; a replacement starts when a thread is killed or dies.
    while (this.#threads.size + this.#starts.unbuilt < plan.size + plan.spares) this.#starts.spawn();
  }

  /** Post `job` to `thread`: to run now when it is idle, else ahead, its deadline stopped until the thread takes it. */
  #dispatch(job: PoolJob, thread: PoolThread): void {
    const ahead = thread.job !== undefined;
    if (ahead) {
      job.state = "ahead";
      job.thread = thread;
      thread.next = job;
      this.#ahead++;
      job.resume = pauseDeadline(job.ctx);
    } else {
      this.#take(job, thread);
      thread.busy();
    }
    try {
      this.#numbers.send(job, thread);
    } catch (cause) {
      if (ahead) this.#unpost(thread);
      else {
        this.#free(job);
        thread.idle();
        this.#idle.push(thread);
      }
      job.exit("its arguments or context cannot be sent to a worker thread", cause);
    }
  }

  /** `thread` takes `job`: its deadline starts again, or, its signal aborted while it waited ahead, its grace period starts. */
  #take(job: PoolJob, thread: PoolThread): void {
    job.thread = thread;
    thread.job = job;
    const resume = job.resume;
    job.resume = undefined;
    if (job.state === "recalled") {
      job.state = "draining";
      this.#draining++;
      job.startGrace(thread, this.#plan.grace);
      return;
    }
    job.state = "running";
    this.#running++;
    resume?.();
  }

  /** The call's signal aborted: abort its handler's, and terminate its thread after the grace period. */
  #abort(job: PoolJob, reason: unknown): void {
    if (job.state === "queued") {
      this.#queue.splice(this.#queue.indexOf(job), 1);
      job.notStarted("while it waited for a worker thread");
      return;
    }
    if (job.state !== "running" && job.state !== "ahead") return;
    const thread = job.thread as PoolThread;
    const ahead = job.state === "ahead";
    if (ahead) {
      job.state = "recalled";
      job.recalled = true;
      thread.recall(job.id);
    } else {
      job.state = "draining";
      this.#running--;
      this.#draining++;
    }
    try {
      thread.send({ type: "abort", id: job.id, reason: encodeThrown(reason) });
    } catch {
      // The thread is already gone: its exit answers the call.
    }
    // Recalled, it comes back unstarted, or has started and meets its grace period when the thread is heard taking it.
    if (!ahead) job.startGrace(thread, this.#plan.grace);
    this.#pump();
  }

  /** The call leaves its thread: it no longer counts as running or draining. */
  #free(job: PoolJob): void {
    if (job.state === "running") this.#running--;
    else if (job.state === "draining") this.#draining--;
    if (job.thread !== undefined) job.thread.job = undefined;
  }
}
