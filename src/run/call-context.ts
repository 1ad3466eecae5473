import { REPORT_RECIPE_STEP, type RecipeStepBody, type RecipeStepReporter } from "../resolve/recipe-step.js";
import type { HandlerContext } from "../tool/handler-context.js";
import type { RunEnv } from "./options.js";
import type { ToolCall } from "../tool/tool-call.js";
import type { CallReport } from "./call-report.js";
import type { ProgressUpdate } from "../tool/handler-context.js";
import { REPORT_FATE, type ExecutorFate, type FateReporter } from "./executor-fate.js";

/** What a context reports to: the attempt's call, which drops reports once it is answered. */
export interface ReportTarget {
  progressed(ctx: CallContext, update: ProgressUpdate): void;
  reported(ctx: CallContext, body: ReportBody): void;
  fated(ctx: CallContext, fate: ExecutorFate): void;
}

/** A report without the call's identity, which the call adds. */
export type ReportBody = CallReport extends infer R ? (R extends CallReport ? Omit<R, "index" | "toolCallId" | "toolName"> : never) : never;

/**
 * The `ctx` a handler receives, one per attempt. Its `AbortController` is made only when a
 * handler first reads `ctx.signal`, so the many handlers that never look at it cost no controller.
 */
export class CallContext implements HandlerContext, RecipeStepReporter, FateReporter {
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  readonly engine: unknown;
  readonly toolCall: ToolCall;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly #target: ReportTarget;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(toolCall: ToolCall, env: RunEnv, target: ReportTarget, attempt: number) {
    this.toolCall = toolCall;
    this.context = env.context;
    this.sessionId = env.sessionId;
    this.requestId = env.requestId;
    this.engine = env.engine;
    this.#target = target;
    this.attempt = attempt;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  progress(update: ProgressUpdate): void {
    if (typeof update !== "object" || update === null || typeof update.progress !== "number") {
      throw new TypeError(`Expected \`ctx.progress\` to get { progress: number, total?, message?, data? }, got ${update === null ? "null" : typeof update}`);
    }
    this.#target.progressed(this, update);
  }

  /** Abort the handler's signal once; later calls keep the first reason. */
  static abort(ctx: CallContext, reason: unknown): void {
    if (ctx.#aborted) return;
    ctx.#aborted = true;
    ctx.#reason = reason;
    ctx.#controller?.abort(reason);
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
