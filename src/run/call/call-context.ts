import { REPORT_RECIPE_STEP, type RecipeStepBody, type RecipeStepReporter } from "../../resolve/recipe-step.js";
import type { RunEnv } from "../options/index.js";
import type { ToolCall } from "../../tool/tool-call.js";
import { type CallReport, REPORT_FATE, type ExecutorFate, type FateReporter } from "../results/index.js";
import { type HandlerContext, LOG_LEVELS, type LogEntry, type ProgressUpdate } from "../../tool/handler-context.js";
import { reportUnhandled } from "../../util/report-unhandled.js";
import { describe } from "../../util/safe.js";
import type { ToolSchema } from "../../schema/types.js";
import type { SampleReply, SampleRequest } from "../../tool/sampling.js";
import type { askUserInCall, sampleInCall } from "./client-requests.js";

/**
 * How a context asks its client: given by the call (run-one.ts), so that a bundle that only reads contexts (a provider's) does not take in the schema compiler with it.
 */
export interface ClientRequests {
  readonly askUser: typeof askUserInCall;
  readonly sample: typeof sampleInCall;
}

/** The method by which a runner's `ctx` takes a nested run's event (see {@link nestedReporterOf}); a symbol, as for recipe steps: a context made by a custom executor has none. */
export const REPORT_NESTED: unique symbol = /* @__PURE__ */ Symbol("toolrx.reportNested");

/** The function that reports a nested run's events on the call `ctx` belongs to, or `undefined` for a context the runner did not make. */
export function nestedReporterOf(ctx: HandlerContext): ((event: unknown) => void) | undefined {
  const report = (ctx as { [REPORT_NESTED]?: (event: unknown) => void })[REPORT_NESTED];
  return typeof report === "function" ? (event) => report.call(ctx, event) : undefined;
}

/** What a context reports to and reads the run's data from: its call, which drops reports once answered. */
export interface ReportTarget {
  /** The call as the model gave it: each attempt's `ctx.toolCall`. */
  readonly call: ToolCall;
  /** Where `ctx.context`, `sessionId`, `requestId`, `engine` and the client channel come from. */
  readonly env: RunEnv;
  /** How `ctx.askUser` and `ctx.sample` ask the run's client. */
  readonly requests: ClientRequests;
  progressed(ctx: CallContext, update: ProgressUpdate): void;
  reported(ctx: CallContext, body: ReportBody): void;
  fated(ctx: CallContext, fate: ExecutorFate): void;
}

/** A report without the call's identity, which the call adds. */
export type ReportBody = CallReport extends infer R ? (R extends CallReport ? Omit<R, "index" | "toolCallId" | "toolName"> : never) : never;

/** `#reason` of a context not aborted (`undefined` is a reason one may abort with). */
const NOT_ABORTED: unique symbol = /* @__PURE__ */ Symbol("not aborted");

/**
 * The `ctx` a handler receives, one per attempt: a view of its call. The run's data (`context`,
 * `sessionId`, `requestId`, `engine`, the client) is read through the call by getters on the
 * prototype, not copied: eight fields instead of fifteen, on the one object the sync path builds
 * per call besides the call's own. Its `AbortController` is made only when a handler first reads
 * `ctx.signal`, so the many handlers that never look at it cost no controller.
 */
export class CallContext implements HandlerContext, RecipeStepReporter, FateReporter {
  readonly toolCall: ToolCall;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly #target: ReportTarget;
  /** See {@link argumentsInputOf}. */
  #input: Record<string, unknown>;
  #controller: AbortController | undefined;
  #listeners: Set<(reason: unknown) => void> | undefined;
  /** {@link NOT_ABORTED}, the abort's reason, or while {@link CallContext.abortLazily}'s reason is unbuilt, its holder. */
  #reason: unknown = NOT_ABORTED;
  #reasonPending = false;

  /** The context of attempt `attempt` of `target`'s call, run with arguments parsed from `input`. */
  constructor(target: ReportTarget, attempt: number, input: Record<string, unknown>) {
    this.toolCall = target.call;
    this.#target = target;
    this.attempt = attempt;
    this.#input = input;
  }

  get context(): unknown {
    return this.#target.env.context;
  }

  get sessionId(): string | undefined {
    return this.#target.env.sessionId;
  }

  get requestId(): string | undefined {
    return this.#target.env.requestId;
  }

  get engine(): unknown {
    return this.#target.env.engine;
  }

  /** The attempt runs with arguments parsed from `input`: a repair's, or a `before` hook's rewrite. */
  static rewrite(ctx: CallContext, input: Record<string, unknown>): void {
    ctx.#input = input;
  }

  /** See {@link argumentsInputOf}. */
  static input(ctx: CallContext): Record<string, unknown> {
    return ctx.#input;
  }

  /** The call `ctx` belongs to (see `pauseDeadline`). */
  static targetOf = (ctx: CallContext): ReportTarget => ctx.#target;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#reason !== NOT_ABORTED) this.#controller.abort(this.#reasonNow());
    }
    return this.#controller.signal;
  }

  progress(update: ProgressUpdate): void {
    if (typeof update !== "object" || update === null || typeof update.progress !== "number") {
      // The handler's work goes on: a malformed report is the reporter's bug, not the call's failure.
      reportUnhandled(
        new TypeError(
          `Expected \`ctx.progress\` of tool ${this.toolCall.name} (call ${this.toolCall.id}) to get { progress: number, total?, message?, data? }, got ${describe(update)}; the report was dropped`,
        ),
      );
      return;
    }
    this.#target.progressed(this, update);
  }

  log(entry: LogEntry): void {
    if (typeof entry !== "object" || entry === null || !LOG_LEVELS.includes(entry.level) || (entry.logger !== undefined && typeof entry.logger !== "string")) {
      reportUnhandled(
        new TypeError(
          `Expected \`ctx.log\` of tool ${this.toolCall.name} (call ${this.toolCall.id}) to get { level: ${LOG_LEVELS.map((l) => `"${l}"`).join(" | ")}, data, logger? }, got ${describe(entry)}; the entry was dropped`,
        ),
      );
      return;
    }
    const { level, data, logger } = entry;
    this.#target.reported(this, { type: "log", attempt: this.attempt, level, data, ...(logger === undefined ? {} : { logger }) });
  }

  /**
   * See {@link HandlerContext.askUser}. Typed `Promise<never>` here, which fits the interface's
   * generic answer type: comparing the two generic signatures sends TypeScript through
   * json-schema-to-ts, too deep to finish.
   */
  askUser(question: string, schema: ToolSchema): Promise<never> {
    return this.#target.requests.askUser(this, this.#target.env.client, question, schema) as Promise<never>;
  }

  sample(request: SampleRequest): Promise<SampleReply> {
    return this.#target.requests.sample(this, this.#target.env.client, request);
  }

  /** Abort the handler's signal once; later calls keep the first reason. */
  static abort(ctx: CallContext, reason: unknown): void {
    if (ctx.#reason !== NOT_ABORTED) return;
    ctx.#reason = reason;
    ctx.#controller?.abort(reason);
    const listeners = ctx.#listeners;
    ctx.#listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch (thrown) {
        reportUnhandled(thrown); // as a signal's listener that throws: the abort goes on
      }
    }
  }

  /**
   * As {@link CallContext.abort}, with a reason that costs something to build (a deadline's
   * error: see `DeadlineTimeout`): when nobody hears the abort now (no signal made yet, nothing
   * watching), it is built only if the signal or a watcher asks for it later.
   */
  static abortLazily(ctx: CallContext, reason: { readonly error: unknown }): void {
    if (ctx.#reason !== NOT_ABORTED) return;
    if (ctx.#controller !== undefined || ctx.#listeners !== undefined) {
      CallContext.abort(ctx, reason.error);
      return;
    }
    ctx.#reason = reason;
    ctx.#reasonPending = true;
  }

  /** The abort's reason, built now if it was left to be built (see {@link CallContext.abortLazily}). */
  #reasonNow(): unknown {
    if (this.#reasonPending) {
      this.#reasonPending = false;
      this.#reason = (this.#reason as { readonly error: unknown }).error;
    }
    return this.#reason;
  }

  /** See {@link watchAbort}. */
  static watch(ctx: CallContext, listener: (reason: unknown) => void): CtxAbort {
    if (ctx.#reason !== NOT_ABORTED) return { aborted: true, reason: ctx.#reasonNow(), stop: () => {} };
    ctx.#listeners ??= new Set();
    ctx.#listeners.add(listener);
    return { aborted: false, reason: undefined, stop: () => ctx.#listeners?.delete(listener) };
  }

  /** Report an event of a run nested in this call (a subagent's), on its behalf. */
  [REPORT_NESTED](event: unknown): void {
    this.#target.reported(this, { type: "nested_event", event });
  }

  /** Report a recipe sub-step on behalf of the call this context belongs to. */
  [REPORT_RECIPE_STEP](body: RecipeStepBody): void {
    this.#target.reported(this, body);
  }

  /** Take the executor's word on what became of this attempt, once the runner has abandoned it. */
  [REPORT_FATE](fate: ExecutorFate): void {
    this.#target.fated(this, fate);
  }
}

/**
 * The arguments an attempt runs with, as the tool's schema took them (before its parse): the
 * model's, a repair's, or a `before` hook's rewrite; `undefined` for a context the runner did not
 * make. What an executor that sends a call elsewhere to be validated again sends: the handler
 * there then runs with what the attempt runs with here, a schema's transforms applied once.
 */
export function argumentsInputOf(ctx: HandlerContext): Record<string, unknown> | undefined {
  return ctx instanceof CallContext ? CallContext.input(ctx) : undefined;
}

/** Where a watched `ctx` stands: aborted already (with its reason, and nothing watched), or watched until `stop`. */
export interface CtxAbort {
  readonly aborted: boolean;
  readonly reason: unknown;
  stop(): void;
}

/**
 * Hear `ctx` abort, with its reason, as `ctx.signal`'s listener would, without making the signal
 * when the runner made `ctx`: an `AbortController` costs an executor that forwards aborts (a
 * worker pool, an MCP client) more than the rest of its own work on a call. Already aborted: says
 * so, and `listener` is never called. Any other `ctx` is watched through its signal.
 */
export function watchAbort(ctx: HandlerContext, listener: (reason: unknown) => void): CtxAbort {
  if (ctx instanceof CallContext) return CallContext.watch(ctx, listener);
  const { signal } = ctx;
  if (signal.aborted) return { aborted: true, reason: signal.reason, stop: () => {} };
  const onAbort = (): void => listener(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return { aborted: false, reason: undefined, stop: () => signal.removeEventListener("abort", onAbort) };
}
