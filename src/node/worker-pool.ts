import { defaultExecutor, type HandlerContext, type HandlerResult, type InferArguments, type Tool, type ToolExecutor, type ToolSchema } from "../index.js";
import { isolatedHandlerOf, isolatedTool, type IsolatedToolDefinition } from "./isolated-tool.js";
import { checkPoolOptions, type PoolPlan, type WorkerPoolOptions } from "./pool-options.js";
import { PoolScheduler } from "./pool-scheduler.js";
import type { WorkerPoolStats } from "./pool-stats.js";

export type { WorkerPoolStats } from "./pool-stats.js";

/** A pool of worker threads that runs isolated tools' handlers; a `ToolExecutor`. See {@link workerPool}. */
export interface WorkerPool extends ToolExecutor {
  readonly name: string;
  readonly size: number;
  /**
   * The pool as a limit (`control.concurrency`) for the runner, `size × (1 + ahead)`: its tools'
   * calls queue for a thread as they queue for any limit, before their deadline starts; a call
   * posted ahead to a busy thread has its deadline stopped until the thread takes it.
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

/** The pool as its users see it: an executor, a limit, its tools; the scheduler does the work. */
class Pool implements WorkerPool {
  readonly #plan: PoolPlan;
  readonly #scheduler: PoolScheduler;

  constructor(plan: PoolPlan) {
    this.#plan = plan;
    this.#scheduler = new PoolScheduler(plan);
    this.execute = this.execute.bind(this);
  }

  get name(): string {
    return this.#plan.name;
  }

  get size(): number {
    return this.#plan.size;
  }

  get concurrency(): { readonly group: string; readonly limit: number } {
    return { group: this.#plan.name, limit: this.#plan.size * (1 + this.#plan.ahead) };
  }

  // The interface's own type, so that the pool is a WorkerPool without tsc comparing two generic signatures (too deep).
  readonly tool: WorkerPool["tool"] = (definition) => {
    const control = { ...definition?.control, concurrency: definition?.control?.concurrency ?? this.concurrency };
    return (isolatedTool as (definition: object) => Tool)({ ...definition, control }) as ReturnType<WorkerPool["tool"]>;
  };

  execute(tool: Tool, args: Record<string, unknown>, ctx: HandlerContext): HandlerResult | Promise<HandlerResult> {
    const handler = isolatedHandlerOf(tool);
    if (handler === undefined) return defaultExecutor.execute(tool, args, ctx);
    return new Promise<HandlerResult>((resolve) => this.#scheduler.submit(tool, args, ctx, handler, resolve));
  }

  warm(): Promise<void> {
    return this.#scheduler.warm();
  }

  stats(): WorkerPoolStats {
    return this.#scheduler.stats();
  }

  close(): Promise<void> {
    return this.#scheduler.close();
  }
}
