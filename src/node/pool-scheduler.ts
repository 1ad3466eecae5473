import type { HandlerContext, HandlerResult, Tool } from "../index.js";
import { encodeThrown } from "./codec.js";
import type { IsolatedHandler } from "./isolated-tool.js";
import { HandlerNumbers } from "./pool-handlers.js";
import { PoolJob } from "./pool-job.js";
import { PoolLedger } from "./pool-ledger.js";
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
  readonly #ledger: PoolLedger;
  #ids = 0;
  /** A thread failed to start: start no more until the next call asks. */
  #broken = false;
  #closed = false;
  readonly #starts: ThreadStarts;
  readonly #numbers = new HandlerNumbers();

  constructor(plan: PoolPlan) {
    this.#plan = plan;
    this.#starts = new ThreadStarts(plan, this);
    this.#ledger = new PoolLedger(plan.grace);
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
    const { running, draining, ahead } = this.#ledger;
    return { threads: this.#threads.size, starting: this.#starts.starting, idle: this.#idle.length, running, draining, queued: this.#queue.length + ahead };
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
    if (thread.takenBack !== undefined && !isResult(message) && message.type === "unstarted" && message.id === thread.takenBack) {
      thread.gaveBack();
      this.#pump();
      return;
    }
    const job = thread.job as PoolJob | undefined;
    if (job === undefined) return;
    if (isResult(message)) {
      if (message[0] !== job.id) return;
      this.#ledger.free(job);
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
      this.#ledger.free(job);
      job.notStarted(job.recalled ? "while it waited on a busy worker thread" : "while its worker thread loaded the handler's module");
    }
    // The thread answered the call before `next`, so it has taken `next` now.
    const next = this.#ledger.unpost(thread);
    if (next !== undefined) this.#ledger.take(next, thread);
    else {
      thread.idle();
      this.#idle.push(thread);
    }
    this.#pump();
  }

  /** The thread gave back the call it held ahead: unstarted, so it waits for a thread again, or is answered if its signal aborted. */
  #unposted(thread: PoolThread, id: number): void {
    if ((thread.next as PoolJob | undefined)?.id !== id) return;
    this.#requeue(this.#ledger.unpost(thread) as PoolJob);
    this.#pump();
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
    const next = this.#ledger.unpost(thread);
    if (next !== undefined) {
      // The exit comes after the thread's last messages (see PoolThread.kill): not having heard
      // the answer before `next`, the thread had not started it; it waits for another thread.
      if (this.#closed) next.exit("the worker pool closed");
      else this.#requeue(next);
    }
    if (job !== undefined) {
      this.#ledger.free(job);
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

  /**
   * Start queued calls on idle threads, or, with none queued, calls posted ahead that their busy
   * threads have not claimed (so none waits behind a slow call while a thread is idle); post the
   * rest ahead to busy threads; then start threads up to size + spares.
   */
  #pump(): void {
    const plan = this.#plan;
    while (this.#ledger.running < plan.size && this.#idle.length > 0) {
      const job = this.#queue.shift() ?? (this.#ledger.ahead > 0 ? this.#ledger.steal(this.#threads) : undefined);
      if (job === undefined) break;
      this.#dispatch(job, this.#idle.pop() as PoolThread);
    }
    if (this.#queue.length > 0 && plan.ahead > 0) {
      for (const thread of this.#threads) {
        const job = thread.job as PoolJob | undefined;
        if (job?.state === "running" && thread.next === undefined && thread.takenBack === undefined) this.#dispatch(this.#queue.shift() as PoolJob, thread);
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
    if (ahead) this.#ledger.postAhead(job, thread);
    else {
      this.#ledger.take(job, thread);
      thread.busy();
    }
    try {
      this.#numbers.send(job, thread);
    } catch (cause) {
      if (ahead) this.#ledger.unpost(thread);
      else {
        this.#ledger.free(job);
        thread.idle();
        this.#idle.push(thread);
      }
      job.exit("its arguments or context cannot be sent to a worker thread", cause);
    }
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
    if (job.state === "ahead") {
      // Taken back before its thread claimed it, it never starts: answer it now.
      if (this.#ledger.takeBack(thread) !== undefined) {
        job.notStarted("while it waited on a busy worker thread");
        this.#pump();
        return;
      }
      // Claimed, it has started: it meets its grace period when the thread is heard taking it.
      this.#ledger.recall(job);
    }
    try {
      thread.send({ type: "abort", id: job.id, reason: encodeThrown(reason) });
    } catch {
      // The thread is already gone: its exit answers the call.
    }
    if (job.state === "running") this.#ledger.drain(job, thread);
    this.#pump();
  }
}
