import type { HandlerContext, LogEntry, ProgressUpdate, SampleReply, SampleRequest, ToolCall, ToolSchema } from "../index.js";

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

/** Whether `value` may be a promise: a `then` getter that throws counts, so the promise's own rejection says it. */
export function maybeThenable(value: unknown): boolean {
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
 * literal of getters and closures was 1.7 KB per job, a quarter of what a job allocated. A
 * progress update the runner cannot take goes to `owner.malformed` (see {@link JobRun}).
 */
export class RemoteContext implements RemoteHandlerContext {
  readonly #ctx: HandlerContext;
  readonly #owner: { malformed(update: unknown): void };
  readonly toolCall: ToolCall;
  readonly idempotencyKey: string;
  readonly attempt: number;

  constructor(ctx: HandlerContext, toolCall: ToolCall, idempotencyKey: string, attempt: number, owner: { malformed(update: unknown): void }) {
    this.#ctx = ctx;
    this.#owner = owner;
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
    else this.#owner.malformed(update);
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
