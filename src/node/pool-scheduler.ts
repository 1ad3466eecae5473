import { reportFate, type HandlerContext, type HandlerResult, type Tool } from "../index.js";
import { encodeThrown } from "./codec.js";
import type { IsolatedHandler } from "./isolated-tool.js";
import { PoolJob } from "./pool-job.js";
import type { PoolPlan } from "./pool-options.js";
import type { WorkerPoolStats } from "./pool-stats.js";
import { PoolThread, type ThreadOwner } from "./pool-thread.js";
import { isResult, type FromWorker } from "./protocol.js";
import { workerScript } from "./worker-script.js";

/**
 * The machinery behind a `WorkerPool`: calls queued for a thread, threads started up to
 * `size + spares`, a call's abort passed on and its thread terminated after the grace period,
 * and each thread's news (ready, a result, progress, its death) turned into the call's answer.
 */
export class PoolScheduler implements ThreadOwner {
  readonly #plan: PoolPlan;
  readonly #threads = new Set<PoolThread>();
  #idle: PoolThread[] = [];
  #queue: PoolJob[] = [];
  #starting = 0;
  /** Threads to start once the worker script is ready (from source only). */
  #unbuilt = 0;
  #running = 0;
  #draining = 0;
  #ids = 0;
  #script: URL | Promise<URL> | undefined;
  /** A thread failed to start: start no more until the next call asks. */
  #broken = false;
  #closed = false;
  #warmed: (() => void)[] = [];
  /** A number per handler (module, export, tool name), so that a call names its handler in a few bytes. */
  readonly #handlerNumbers = new Map<string, number>();
  /** The same numbers by tool, so that a call of a tool seen before builds no key. */
  readonly #toolNumbers = new WeakMap<Tool, number>();

  constructor(plan: PoolPlan) {
    this.#plan = plan;
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
    return this.#starting === 0 ? Promise.resolve() : new Promise((resolve) => this.#warmed.push(resolve));
  }

  stats(): WorkerPoolStats {
    const threads = this.#threads.size;
    return { threads, starting: this.#starting, idle: this.#idle.length, running: this.#running, draining: this.#draining, queued: this.#queue.length };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.exit("the worker pool closed");
    const closing = [...this.#threads].map((thread) => thread.kill(new Error("the worker pool closed")));
    this.#wake();
    await Promise.all(closing);
  }

  ready(thread: PoolThread): void {
    this.#starting--;
    this.#idle.push(thread);
    this.#pump();
    if (this.#starting === 0) this.#wake();
  }

  message(thread: PoolThread, message: FromWorker): void {
    const job = thread.job as PoolJob | undefined;
    if (job === undefined) return;
    if (isResult(message)) {
      if (message[0] !== job.id) return;
      this.#free(job);
      job.answer(message);
    } else {
      if (message.type === "ready" || message.id !== job.id) return;
      if (message.type === "progress") {
        job.progressed(message.update);
        return;
      }
      if (message.type === "log") {
        job.logged(message.entry);
        return;
      }
      this.#free(job);
      job.notStarted("while its worker thread loaded the handler's module");
    }
    thread.idle();
    this.#idle.push(thread);
    this.#pump();
  }

  exited(thread: PoolThread, why: Error): void {
    this.#threads.delete(thread);
    if (!thread.started) {
      this.#startFailed(why);
      return;
    }
    const at = this.#idle.indexOf(thread);
    if (at >= 0) this.#idle.splice(at, 1);
    const job = thread.job as PoolJob | undefined;
    if (job !== undefined) {
      const killed = job.killed;
      this.#free(job);
      if (killed) {
        reportFate(job.ctx, "killed");
        job.exit(`its worker thread was terminated ${this.#plan.grace} ms after its signal aborted`, job.abortReason);
      } else {
        job.exit(`its worker thread died: ${why.message}`, why);
      }
    }
    this.#pump();
  }

  /** A thread died before it was ready (its preloads throw, or it cannot start at all): fail the waiting calls, start no more for now. */
  #startFailed(why: Error): void {
    this.#starting--;
    if (!this.#closed) {
      this.#broken = true;
      for (const waiting of this.#queue.splice(0)) waiting.exit(`no worker thread could start: ${why.message}`, why);
    }
    if (this.#starting === 0) this.#wake();
  }

  /** Start queued calls on idle threads, then start threads up to size + spares. */
  #pump(): void {
    const plan = this.#plan;
    while (this.#queue.length > 0 && this.#running < plan.size && this.#idle.length > 0) {
      this.#dispatch(this.#queue.shift() as PoolJob, this.#idle.pop() as PoolThread);
    }
    if (this.#closed || this.#broken) return;
    // A draining thread still counts: most handlers settle on their signal, and its spare takes
    // the next call meanwhile; a replacement starts when a thread is killed or dies.
    while (this.#threads.size + this.#unbuilt < plan.size + plan.spares) this.#spawn();
  }

  #spawn(): void {
    const plan = this.#plan;
    this.#script ??= workerScript();
    const script = this.#script;
    this.#starting++;
    const start = (url: URL): void => {
      if (this.#closed) return void this.#starting--;
      try {
        this.#threads.add(new PoolThread(url, { preload: plan.preload }, plan.resourceLimits, this));
      } catch (cause) {
        this.#startFailed(cause instanceof Error ? cause : new Error(String(cause)));
      }
    };
    if (script instanceof URL) {
      start(script);
      return;
    }
    // Counted while the worker script is being prepared, so the pump starts no more meanwhile.
    this.#unbuilt++;
    void script.then((url) => {
      this.#unbuilt--;
      start(url);
    });
  }

  #dispatch(job: PoolJob, thread: PoolThread): void {
    job.state = "running";
    job.thread = thread;
    thread.job = job;
    thread.busy();
    this.#running++;
    try {
      const { tool, handler } = job;
      const number = this.#toolNumbers.get(tool) ?? this.#number(tool, handler);
      const known = thread.defined.has(number);
      thread.send(job.callMessage(number, known ? undefined : { module: handler.module, export: handler.export, toolName: tool.name }));
      if (!known) thread.defined.add(number);
    } catch (cause) {
      this.#free(job);
      job.exit("its arguments or context cannot be sent to a worker thread", cause);
      thread.idle();
      this.#idle.push(thread);
    }
  }

  /** The number of `tool`'s handler, given the first time a tool names it. */
  #number(tool: Tool, handler: IsolatedHandler): number {
    const key = `${tool.name}\0${handler.export}\0${handler.module}`;
    let number = this.#handlerNumbers.get(key);
    if (number === undefined) {
      number = this.#handlerNumbers.size;
      this.#handlerNumbers.set(key, number);
    }
    this.#toolNumbers.set(tool, number);
    return number;
  }

  /** The call's signal aborted: abort its handler's, and terminate its thread after the grace period. */
  #abort(job: PoolJob, reason: unknown): void {
    if (job.state === "queued") {
      this.#queue.splice(this.#queue.indexOf(job), 1);
      job.notStarted("while it waited for a worker thread");
      return;
    }
    if (job.state !== "running") return;
    const thread = job.thread as PoolThread;
    job.state = "draining";
    this.#running--;
    this.#draining++;
    try {
      thread.send({ type: "abort", id: job.id, reason: encodeThrown(reason) });
    } catch {
      // The thread is already gone: its exit answers the call.
    }
    const kill = (): void => {
      job.killed = true;
      void thread.kill(new Error("terminated after the grace period"));
    };
    if (this.#plan.grace === 0) kill();
    else job.grace = setTimeout(kill, this.#plan.grace);
    this.#pump();
  }

  /** The call leaves its thread: it no longer counts as running or draining. */
  #free(job: PoolJob): void {
    if (job.state === "running") this.#running--;
    else if (job.state === "draining") this.#draining--;
    if (job.thread !== undefined) job.thread.job = undefined;
  }

  #wake(): void {
    for (const resolve of this.#warmed.splice(0)) resolve();
  }
}
