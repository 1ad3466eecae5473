import { error, ToolError, type HandlerContext, type HandlerResult, type Tool } from "../index.js";
import type { IsolatedHandler } from "./isolated-tool.js";
import type { PoolThread } from "./pool-thread.js";

/** Where a call stands in the pool. */
export type JobState = "queued" | "running" | "draining" | "done";

/**
 * One call handed to the pool: queued for a thread, running on one, draining (its `ctx.signal`
 * aborted, its handler given the grace period to settle), or done.
 */
export class PoolJob {
  state: JobState = "queued";
  thread: PoolThread | undefined;
  grace: ReturnType<typeof setTimeout> | undefined;
  /** The pool terminated its thread after the grace period. */
  killed = false;
  readonly #resolve: (result: HandlerResult) => void;
  readonly #onAbort: () => void;

  constructor(
    readonly id: number,
    readonly tool: Tool,
    readonly args: Record<string, unknown>,
    readonly ctx: HandlerContext,
    readonly handler: IsolatedHandler,
    resolve: (result: HandlerResult) => void,
    onAbort: (job: PoolJob) => void,
  ) {
    this.#resolve = resolve;
    this.#onAbort = () => onAbort(this);
    ctx.signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Answer the call, once, and let go of its signal and timer. */
  settle(result: HandlerResult): void {
    if (this.state === "done") return;
    this.state = "done";
    this.ctx.signal.removeEventListener("abort", this.#onAbort);
    if (this.grace !== undefined) clearTimeout(this.grace);
    this.grace = undefined;
    this.thread = undefined;
    this.#resolve(result);
  }

  /** Answer the call `handler_exit`: its thread is gone, or it could not be sent to one. */
  exit(what: string, cause?: unknown): void {
    const toolName = this.tool.name;
    const message = `tool error (${toolName}): handler_exit: ${what}`;
    this.settle(error(new ToolError("handler_exit", { message, toolName, toolCallId: this.ctx.toolCall.id, ...(cause !== undefined && { cause }) })));
  }
}
