import type { HandlerContext, LogEntry, ProgressUpdate, SampleReply, SampleRequest, ToolCall, ToolExecutor, ToolSchema } from "../index.js";

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
  /** A handler that returned without a promise: settled at once, and no promise is made for it. */
  let returnedNow: Settlement | undefined;
  let done = false;
  const executor: ToolExecutor = {
    execute(tool, args, ctx) {
      const remote = new RemoteContext(ctx, toolCall, idempotencyKey, attempt, malformed);
      const returned = inner.execute(tool, args, remote);
      if (!maybeThenable(returned)) {
        returnedNow = { value: returned };
        done = true;
        return returned;
      }
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
    started: () => running !== undefined || returnedNow !== undefined,
    settled: () => running ?? Promise.resolve(returnedNow),
    // Read after the runner answered: its handler is almost always settled by then, and waiting
    // for `settled()` (a grace timer per job) would cost every job for the rare one still running.
    idle: () => running === undefined || done,
  };
}

/** Whether `value` may be a promise: a `then` getter that throws counts, so the promise's own rejection says it. */
function maybeThenable(value: unknown): boolean {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === "function";
  } catch {
    return true;
  }
}

/** How the inner executor's answer settled: kept so that a handler settling after a cancel is answered with its own result. */
export type Settlement = { readonly value: unknown } | { readonly thrown: unknown };

/** What the runner's `ctx.progress` takes: `{ progress: number, ... }`. */
export function wellFormed(update: unknown): update is ProgressUpdate {
  return typeof update === "object" && update !== null && typeof (update as { progress?: unknown }).progress === "number";
}

/**
 * The context a remote handler gets: the runner's, delegated to rather than copied (it keeps
 * private state behind `signal` and `progress`), with the model's `toolCall`, `idempotencyKey`
 * and `attempt`. Methods on the prototype, as the runner's own context has them: an object
 * literal of getters and closures was 1.7 KB per job, a quarter of what a job allocated.
 */
class RemoteContext implements RemoteHandlerContext {
  readonly #ctx: HandlerContext;
  readonly #malformed: (update: unknown) => void;
  readonly toolCall: ToolCall;
  readonly idempotencyKey: string;
  readonly attempt: number;

  constructor(ctx: HandlerContext, toolCall: ToolCall, idempotencyKey: string, attempt: number, malformed: (update: unknown) => void) {
    this.#ctx = ctx;
    this.#malformed = malformed;
    this.toolCall = toolCall;
    this.idempotencyKey = idempotencyKey;
    this.attempt = attempt;
  }

  get context(): unknown {
    return this.#ctx.context;
  }

  get sessionId(): string | undefined {
    return this.#ctx.sessionId;
  }

  get requestId(): string | undefined {
    return this.#ctx.requestId;
  }

  get engine(): unknown {
    return this.#ctx.engine;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }

  progress(update: ProgressUpdate): void {
    if (wellFormed(update)) this.#ctx.progress(update);
    else this.#malformed(update);
  }

  log(entry: LogEntry): void {
    this.#ctx.log(entry);
  }

  /** Typed `Promise<never>`, as the runner's context does: comparing the generic signatures is too deep for TypeScript. */
  askUser(question: string, schema: ToolSchema): Promise<never> {
    return this.#ctx.askUser(question, schema) as Promise<never>;
  }

  sample(request: SampleRequest): Promise<SampleReply> {
    return this.#ctx.sample(request);
  }
}
