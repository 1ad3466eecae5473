import type { HandlerContext, LogEntry, ProgressUpdate, ToolCall, ToolExecutor } from "../index.js";

/** What a handler run by a {@link bullmqWorker} gets besides the usual context. */
export interface RemoteHandlerContext extends HandlerContext {
  /**
   * Stable for the call across attempts, workers and producer restarts: hand it to an outside
   * service (a payment API's idempotency key) so that an effect happens once.
   */
  readonly idempotencyKey: string;
  /** 1 for the call's first attempt. */
  readonly attempt: number;
}

/**
 * The key a remote handler's context carries, or `undefined` in-process: lets a handler written
 * for both places read it without a cast.
 *
 * @example
 * handler: async (args, ctx) => ok(await pay(args, { idempotencyKey: remoteIdempotencyKey(ctx) ?? ctx.toolCall.id }))
 */
export function remoteIdempotencyKey(ctx: HandlerContext): string | undefined {
  const key = (ctx as Partial<RemoteHandlerContext>).idempotencyKey;
  return typeof key === "string" ? key : undefined;
}

/**
 * An executor that hands the inner one a context with `idempotencyKey`, `attempt` and the model's
 * `toolCall` (the worker's runner may run it with a repair's arguments), and keeps the handler's
 * own settlement: the job must not end (and free its slot and leases) while the handler still
 * runs, even after the runner answered for it, and a handler that settles after a cancel is
 * answered with what it settled with.
 *
 * A progress update the runner cannot take goes to `malformed` instead: the producer's runner
 * drops it and reports it to its host, as an in-process call's would be. Reported here, on the
 * worker, the error would be rethrown on its own task and end the worker's process.
 *
 * `idle()`: no handler started, or it has settled.
 */
export function remoteContextExecutor(
  inner: ToolExecutor,
  idempotencyKey: string,
  attempt: number,
  toolCall: ToolCall,
  malformed: (update: unknown) => void,
): { executor: ToolExecutor; started(): boolean; settled(): Promise<Settlement | undefined>; idle(): boolean } {
  let running: Promise<Settlement> | undefined;
  let done = false;
  const executor: ToolExecutor = {
    execute(tool, args, ctx) {
      // Delegation, not a copy: the runner's context keeps private state behind `signal` and `progress`.
      const remote: RemoteHandlerContext = {
        get context() {
          return ctx.context;
        },
        sessionId: ctx.sessionId,
        requestId: ctx.requestId,
        toolCall,
        engine: ctx.engine,
        get signal() {
          return ctx.signal;
        },
        progress: (update: ProgressUpdate) => (wellFormed(update) ? ctx.progress(update) : malformed(update)),
        log: (entry: LogEntry) => ctx.log(entry),
        askUser: ctx.askUser.bind(ctx),
        sample: (request) => ctx.sample(request),
        idempotencyKey,
        attempt,
      };
      const returned = inner.execute(tool, args, remote);
      running = Promise.resolve(returned).then(
        (value): Settlement => {
          done = true;
          return { value };
        },
        (thrown: unknown): Settlement => {
          done = true;
          return { thrown };
        },
      );
      return returned;
    },
  };
  return {
    executor,
    started: () => running !== undefined,
    settled: () => running ?? Promise.resolve(undefined),
    // Read after the runner answered: its handler is almost always settled by then, and waiting
    // for `settled()` (a grace timer per job) would cost every job for the rare one still running.
    idle: () => running === undefined || done,
  };
}

/** How the inner executor's answer settled: kept so that a handler settling after a cancel is answered with its own result. */
export type Settlement = { readonly value: unknown } | { readonly thrown: unknown };

/** What the runner's `ctx.progress` takes: `{ progress: number, ... }`. */
export function wellFormed(update: unknown): update is ProgressUpdate {
  return typeof update === "object" && update !== null && typeof (update as { progress?: unknown }).progress === "number";
}
