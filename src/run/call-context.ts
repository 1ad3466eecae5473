import type { HandlerContext } from "../executor.js";
import type { RunEnv } from "../options.js";
import type { ToolCall } from "../tool-call.js";

/**
 * The `ctx` a handler receives. Its `AbortController` is made only when a handler first reads
 * `ctx.signal`, so the many handlers that never look at it cost no controller.
 */
export class CallContext implements HandlerContext {
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  readonly engine: unknown;
  readonly toolCall: ToolCall;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(toolCall: ToolCall, env: RunEnv) {
    this.toolCall = toolCall;
    this.context = env.context;
    this.sessionId = env.sessionId;
    this.requestId = env.requestId;
    this.engine = env.engine;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Abort the handler's signal once; later calls keep the first reason. */
  static abort(ctx: CallContext, reason: unknown): void {
    if (ctx.#aborted) return;
    ctx.#aborted = true;
    ctx.#reason = reason;
    ctx.#controller?.abort(reason);
  }
}
