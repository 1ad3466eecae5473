import {
  defaultExecutor,
  error,
  reportFate,
  ToolError,
  type HandlerContext,
  type HandlerResult,
  type InferArguments,
  type Tool,
  type ToolExecutor,
  type ToolSchema,
} from "../index.js";
import { decodeResult, encodeThrown } from "./codec.js";
import { isolatedHandlerOf, isolatedTool, type IsolatedToolDefinition } from "./isolated-tool.js";
import { checkPoolOptions, type PoolPlan, type WorkerPoolOptions } from "./pool-options.js";
import { PoolJob } from "./pool-job.js";
import { PoolThread, type ThreadOwner } from "./pool-thread.js";
import type { FromWorker } from "./protocol.js";
import { workerScript } from "./worker-script.js";

/** What a pool is doing right now, for a metric or a test. */
export interface WorkerPoolStats {
  /** Threads alive: starting, idle, running or draining. */
  readonly threads: number;
  readonly starting: number;
  readonly idle: number;
  /** Calls running on a thread. */
  readonly running: number;
  /** Calls whose signal aborted, given the grace period before their thread is terminated. */
  readonly draining: number;
  /** Calls waiting for a thread. */
  readonly queued: number;
}

/** A pool of worker threads that runs isolated tools' handlers; a `ToolExecutor`. See {@link workerPool}. */
export interface WorkerPool extends ToolExecutor {
  readonly name: string;
  readonly size: number;
  /**
   * The pool as a limit (`control.concurrency`) for the runner: its tools' calls queue for a
   * thread as they queue for any limit, before their deadline starts.
   */
  readonly concurrency: { readonly group: string; readonly limit: number };
  /** {@link isolatedTool}, with {@link WorkerPool.concurrency} as its `control.concurrency` unless it sets its own. */
  tool<const S extends ToolSchema>(definition: IsolatedToolDefinition<S>): Tool<InferArguments<S>>;
  /** Start the threads now (size + spares) instead of on the first call; resolves once they are ready. */
  warm(): Promise<void>;
  stats(): WorkerPoolStats;
  /** Terminate every thread; calls still running or queued answer `handler_exit`. Later calls do too. */
  close(): Promise<void>;
}

/**
 * A pool of `worker_threads` that runs {@link isolatedTool}s' handlers, one call per thread,
 * with the real `defaultExecutor`, and a hard stop: when a call's `ctx.signal` aborts (deadline,
 * cancel, unsubscribe), the handler's own signal in the thread aborts with the same reason; if
 * it has not settled `grace` ms later, its thread is terminated and replaced, and
 * `onCallReport` hears `late_settlement` with `fate: "killed"`. A thread that dies answers its
 * call `handler_exit`. Other tools run in-process, as `defaultExecutor` runs them.
 *
 * @throws {TypeError} naming the option.
 * @example
 * const pool = workerPool({ size: 2 });
 * const fib = pool.tool({ name: "fib", description: "", schema, module: new URL("./fib.mjs", import.meta.url), export: "fib" });
 * await runToolCalls(calls, [fib], { toolExecutor: pool, toolTimeout: 100 }); // a stuck fib answers `timeout` at 100 ms
 * await pool.close();
 */
export function workerPool(options: WorkerPoolOptions = {}): WorkerPool {
  return new Pool(checkPoolOptions(options));
}

class Pool implements WorkerPool, ThreadOwner {
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

  constructor(plan: PoolPlan) {
    this.#plan = plan;
    this.execute = this.execute.bind(this);
  }

  get name(): string {
    return this.#plan.name;
  }

  get size(): number {
    return this.#plan.size;
  }

  get concurrency(): { readonly group: string; readonly limit: number } {
    return { group: this.#plan.name, limit: this.#plan.size };
  }

  // The interface's own type, so that the pool is a WorkerPool without tsc comparing two generic signatures (too deep).
  readonly tool: WorkerPool["tool"] = (definition) => {
    const control = { ...definition?.control, concurrency: definition?.control?.concurrency ?? this.concurrency };
    return (isolatedTool as (definition: object) => Tool)({ ...definition, control }) as ReturnType<WorkerPool["tool"]>;
  };

  execute(tool: Tool, args: Record<string, unknown>, ctx: HandlerContext): HandlerResult | Promise<HandlerResult> {
    const handler = isolatedHandlerOf(tool);
    if (handler === undefined) return defaultExecutor.execute(tool, args, ctx);
    return new Promise<HandlerResult>((resolve) => {
      const job = new PoolJob(++this.#ids, tool, args, ctx, handler, resolve, (j) => this.#abort(j, ctx.signal.reason));
      if (this.#closed) return job.exit("the worker pool is closed");
      if (ctx.signal.aborted) return job.notStarted("before it reached a worker thread");
      this.#queue.push(job);
      this.#broken = false;
      this.#pump();
    });
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
    if (job === undefined || message.type === "ready" || message.id !== job.id) return;
    if (message.type === "progress") {
      job.progressed(message.update);
      return;
    }
    this.#free(job);
    if (message.type === "unstarted") job.notStarted("while its worker thread loaded the handler's module");
    else {
      const decoded = decodeResult(message.result);
      if (decoded.ok) job.settle(decoded.value);
      else
        job.settle(
          error(new ToolError("invalid_return", { toolName: job.tool.name, toolCallId: job.ctx.toolCall.id, metadata: { crossing: decoded.problem } })),
        );
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
        job.exit(`its worker thread was terminated ${this.#plan.grace} ms after its signal aborted`, job.ctx.signal.reason);
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
    const { ctx, handler, tool } = job;
    job.state = "running";
    job.thread = thread;
    thread.job = job;
    thread.busy();
    this.#running++;
    try {
      const context = handler.context === undefined ? ctx.context : handler.context(ctx.context);
      const { sessionId, requestId, toolCall } = ctx;
      thread.send({
        type: "call",
        id: job.id,
        module: handler.module,
        export: handler.export,
        toolName: tool.name,
        args: job.args,
        toolCall,
        context,
        sessionId,
        requestId,
      });
    } catch (cause) {
      this.#free(job);
      job.exit("its arguments or context cannot be sent to a worker thread", cause);
      thread.idle();
      this.#idle.push(thread);
    }
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
