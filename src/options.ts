import { asyncScheduler, type SchedulerLike, type Subscribable } from "rxjs";
import { availableCores } from "./cores.js";
import { jsonEncoder, type ToolResultEncoder } from "./encoder.js";
import { defaultExecutor, type ToolExecutor } from "./executor.js";
import type { OnToolError } from "./policy.js";
import type { CallReport } from "./run/call-report.js";
import { checkRetryPolicy, type RetryPlan, type RetryPolicy } from "./run/retry.js";
import { describe } from "./safe.js";
import { assertKnownOptions } from "./unknown-option.js";

/** Engine-wide defaults a batch falls back on. */
export interface EngineLike {
  toolExecutor?: ToolExecutor;
  toolResultEncoder?: ToolResultEncoder;
  context?: unknown;
}

/** Options of {@link streamToolCalls} and {@link runToolCalls}. */
export interface RunOptions {
  /** Defaults for executor, encoder and context; also handed to handlers as `ctx.engine`. */
  engine?: EngineLike;
  /** Default: `engine.toolExecutor ?? defaultExecutor`. */
  toolExecutor?: ToolExecutor;
  /** Default: `engine.toolResultEncoder ?? jsonEncoder`. */
  toolResultEncoder?: ToolResultEncoder;
  /** Default `"continue"`. */
  onToolError?: OnToolError;
  /** Milliseconds per call, from its handler's start; `Infinity` for none. Default `30_000`. */
  toolTimeout?: number;
  /** Default `max(1, min(calls.length, 2 × cores))`; `2 × cores` for an Observable of calls. */
  maxConcurrency?: number;
  /** Handed to handlers as `ctx.context`. Default `engine.context ?? {}`. */
  context?: unknown;
  sessionId?: string;
  requestId?: string;
  /** Aborts the whole batch: running handlers see it on `ctx.signal`, nothing new starts. */
  signal?: AbortSignal;
  /** Check arguments against the tool's schema before the handler runs. Default `true`. */
  validateArguments?: boolean;
  /** Where deadlines are scheduled. Default `asyncScheduler`; pass a `TestScheduler` for virtual time. */
  scheduler?: SchedulerLike;
  /**
   * Milliseconds a call may go without a progress report (`ctx.progress`) before it answers
   * `timeout`; each report restarts it. Counts from the handler's start, always capped by
   * `toolTimeout`. Default `Infinity` (none).
   */
  toolIdleTimeout?: number;
  /**
   * The side channel: what happens inside each call (progress, recipe sub-steps, retried
   * attempts, late settlements). A call's reports arrive before its `completed` event, except
   * `late_settlement`. Called synchronously; keep it cheap.
   */
  onCallReport?: (report: CallReport) => void;
  /**
   * Ids of calls to cancel while the rest of the batch goes on (a "stop" button): a call id, or
   * `{ toolCallId, reason }`. The call is answered with a `CallCancelledError` through
   * `onToolError`; a running handler's `ctx.signal` aborts with it.
   */
  cancel?: Subscribable<string | CallCancellation>;
  /** Retries for tools declared `control.idempotent` (all tools with `nonIdempotent: true`); a tool's own `control.retry` wins. */
  retry?: RetryPolicy;
  /**
   * How long, after a call stopped waiting for its handler (deadline or cancel), to watch for it
   * to settle before reporting `late_settlement` with `settled: false`. Only with
   * `onCallReport`. Default `5_000`.
   */
  settleGrace?: number;
  /**
   * A batch call naming a tool that is not in `tools`: `"fail"` (default) fails the whole batch
   * with an `EngineError` before any tool runs; `"answer"` answers that call alone with a
   * `not_found` error listing the tools that exist, through `onToolError`, and runs the rest.
   * Streamed calls are always answered.
   */
  onUnknownTool?: "fail" | "answer";
}

/** A cancel request: which call, and what to tell the model. */
export interface CallCancellation {
  readonly toolCallId: string;
  /** Appended to the model's text; default none. */
  readonly reason?: string;
}

/** {@link RunOptions} checked, with every default filled in. */
export interface RunEnv {
  readonly executor: ToolExecutor;
  readonly encoder: ToolResultEncoder;
  readonly policy: OnToolError;
  readonly timeout: number;
  readonly concurrency: number;
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  readonly engine: unknown;
  readonly signal: AbortSignal | undefined;
  readonly validate: boolean;
  readonly scheduler: SchedulerLike;
  /** Bound on a recipe's parallel steps: `maxConcurrency ?? 2 × cores`, not capped by the batch size. */
  readonly recipeConcurrency: number;
  /** `Infinity` when unset. */
  readonly idleTimeout: number;
  readonly onReport: ((report: CallReport) => void) | undefined;
  readonly cancel: Subscribable<string | CallCancellation> | undefined;
  readonly retry: RetryPlan | undefined;
  readonly settleGrace: number;
  readonly onUnknownTool: "fail" | "answer";
}

/** The longest delay timers accept (2^31 - 1 ms); longer ones fire at once. */
export const MAX_TIMEOUT = 2_147_483_647;

/**
 * Check every option and fill in the defaults. `callCount` is `undefined` for an Observable
 * of calls, whose size is unknown; `extraKeys` are the keys a caller's own options add.
 *
 * @throws {TypeError} naming the option and what it got.
 */
export function resolveOptions(options: RunOptions | undefined, callCount: number | undefined, extraKeys?: ReadonlySet<string>): RunEnv {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new TypeError(`Expected options to be an object, got ${describe(options)}`);
  // A renamed option is said as such, before it would be called unknown.
  if ((options as { onRecipeStep?: unknown }).onRecipeStep !== undefined) {
    throw new TypeError("`onRecipeStep` was replaced by `onCallReport`: recipe sub-steps are its `recipe_step_*` reports");
  }
  assertKnownOptions(options, extraKeys);
  const { engine, onToolError = "continue", toolTimeout = 30_000, signal, validateArguments = true } = options;

  if (onToolError !== "continue" && onToolError !== "halt" && !(typeof onToolError === "function" && onToolError.length <= 2)) {
    throw new TypeError(
      `Expected \`onToolError\` to be "continue", "halt" or a function (toolCall, error) => { continue: value } | "halt", got ${
        typeof onToolError === "function" ? `a function of ${(onToolError as (...args: never[]) => unknown).length} parameters` : describe(onToolError)
      }`,
    );
  }
  if (engine !== undefined && (typeof engine !== "object" || engine === null || Array.isArray(engine))) {
    throw new TypeError(`Expected \`engine\` to be an object, got ${describe(engine)}`);
  }
  const executor = options.toolExecutor ?? engine?.toolExecutor ?? defaultExecutor;
  if (typeof executor?.execute !== "function") {
    throw new TypeError(`Expected \`toolExecutor\` to have an \`execute\` method, got ${describe(executor)}`);
  }
  const encoder = options.toolResultEncoder ?? engine?.toolResultEncoder ?? jsonEncoder;
  if (typeof encoder?.encode !== "function" || typeof encoder.encodeError !== "function") {
    throw new TypeError(
      `Expected \`toolResultEncoder\` to have \`encode\` and \`encodeError\` methods, got ${describe(encoder)}`,
    );
  }
  if (!(toolTimeout === Infinity || (typeof toolTimeout === "number" && toolTimeout > 0 && toolTimeout <= MAX_TIMEOUT))) {
    throw new TypeError(
      `Expected \`toolTimeout\` to be Infinity or a positive number of milliseconds up to ${MAX_TIMEOUT}, got ${describe(toolTimeout)}`,
    );
  }
  const { maxConcurrency } = options;
  if (maxConcurrency !== undefined && !(Number.isInteger(maxConcurrency) && maxConcurrency > 0)) {
    throw new TypeError(`Expected \`maxConcurrency\` to be a positive integer, got ${describe(maxConcurrency)}`);
  }
  if (
    signal !== undefined &&
    (typeof signal !== "object" || signal === null || typeof signal.aborted !== "boolean" || typeof signal.addEventListener !== "function")
  ) {
    throw new TypeError(`Expected \`signal\` to be an AbortSignal, got ${describe(signal)}`);
  }
  if (typeof validateArguments !== "boolean") {
    throw new TypeError(`Expected \`validateArguments\` to be a boolean, got ${describe(validateArguments)}`);
  }
  for (const key of ["sessionId", "requestId"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`Expected \`${key}\` to be a string, got ${describe(value)}`);
    }
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  if (typeof scheduler?.schedule !== "function" || typeof scheduler.now !== "function") {
    throw new TypeError(`Expected \`scheduler\` to be an RxJS SchedulerLike, got ${describe(scheduler)}`);
  }


  const { toolIdleTimeout = Infinity, onCallReport, cancel, settleGrace = 5_000 } = options;
  if (!(toolIdleTimeout === Infinity || (typeof toolIdleTimeout === "number" && toolIdleTimeout > 0 && toolIdleTimeout <= MAX_TIMEOUT))) {
    throw new TypeError(
      `Expected \`toolIdleTimeout\` to be Infinity or a positive number of milliseconds up to ${MAX_TIMEOUT}, got ${describe(toolIdleTimeout)}`,
    );
  }
  if (onCallReport !== undefined && typeof onCallReport !== "function") {
    throw new TypeError(`Expected \`onCallReport\` to be a function, got ${describe(onCallReport)}`);
  }
  if (cancel !== undefined && typeof (cancel as { subscribe?: unknown } | null)?.subscribe !== "function") {
    throw new TypeError(`Expected \`cancel\` to be an Observable of call ids, got ${describe(cancel)}`);
  }
  if (!(typeof settleGrace === "number" && settleGrace >= 0 && settleGrace <= MAX_TIMEOUT)) {
    throw new TypeError(`Expected \`settleGrace\` to be a number of milliseconds from 0 to ${MAX_TIMEOUT}, got ${describe(settleGrace)}`);
  }
  const retry = options.retry === undefined ? undefined : checkRetryPolicy(options.retry, "retry");

  const { onUnknownTool = "fail" } = options;
  if (onUnknownTool !== "fail" && onUnknownTool !== "answer") {
    throw new TypeError(`Expected \`onUnknownTool\` to be "fail" or "answer", got ${describe(onUnknownTool)}`);
  }

  const cap = 2 * availableCores();
  return {
    executor,
    encoder,
    policy: onToolError,
    timeout: toolTimeout,
    concurrency: maxConcurrency ?? (callCount === undefined ? cap : Math.max(1, Math.min(callCount, cap))),
    context: options.context ?? engine?.context ?? {},
    sessionId: options.sessionId,
    requestId: options.requestId,
    engine,
    signal,
    validate: validateArguments,
    scheduler,
    recipeConcurrency: maxConcurrency ?? cap,
    idleTimeout: toolIdleTimeout,
    onReport: onCallReport,
    cancel,
    retry,
    settleGrace,
    onUnknownTool,
  };
}
