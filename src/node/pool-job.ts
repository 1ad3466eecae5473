import {
  CallCancelledError,
  error,
  isToolError,
  reportFate,
  ToolError,
  type HandlerContext,
  type HandlerResult,
  type LogEntry,
  type ProgressUpdate,
  type Tool,
  type ToolCall,
} from "../index.js";
import { type CtxAbort, watchAbort } from "../internal.js";
import { decodeResult, decodeThrown } from "./codec.js";
import type { IsolatedHandler } from "./isolated-tool.js";
import type { PoolThread } from "./pool-thread.js";
import type { CallMessage, HandlerDefinition, ResultMessage, WireProgress } from "./protocol.js";

/**
 * Where a call stands in the pool. `ahead`: posted to a thread busy with the call before it, its
 * deadline stopped until the thread takes it; `recalled`: such a call whose signal aborted, told
 * to its thread, which answers it unstarted (or, having started it, aborts its handler).
 */
export type JobState = "queued" | "ahead" | "recalled" | "running" | "draining" | "done";

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
  /** Its signal aborted while it waited posted ahead (see {@link JobState}). */
  recalled = false;
  /** Starts its deadline again: set while it waits on a busy thread (see {@link JobState}). */
  resume: (() => void) | undefined = undefined;
  readonly #resolve: (result: HandlerResult) => void;
  readonly #abort: CtxAbort;
  /** Why its `ctx` aborted, once it has. */
  abortReason: unknown;

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
    this.#abort = watchAbort(ctx, (reason) => {
      this.abortReason = reason;
      onAbort(this);
    });
    this.abortReason = this.#abort.reason;
  }

  /** Its `ctx` had aborted before it reached the pool. */
  get abortedEarly(): boolean {
    return this.#abort.aborted;
  }

  /** Answer the call, once, and let go of its signal and timer. */
  settle(result: HandlerResult): void {
    if (this.state === "done") return;
    this.state = "done";
    this.#abort.stop();
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

  /**
   * Answer a call whose handler never started because its signal aborted first (its deadline
   * passed while it waited for a thread, or while its thread loaded the module): with the abort's
   * own answer (the call's `timeout`, or its cancellation), saying that the handler did not run,
   * as the runner says of a call cancelled before it started. `metadata.started` is `false`.
   */
  notStarted(when: string): void {
    const aborted: unknown = this.abortReason;
    const toolName = this.tool.name;
    const toolCallId = this.ctx.toolCall.id;
    if (aborted instanceof CallCancelledError) {
      this.settle(error(new CallCancelledError(toolName, toolCallId, false, aborted.cancelReason)));
      return;
    }
    const said = isToolError(aborted) ? aborted.message : `tool error (${toolName}): handler_exit: the call was cancelled`;
    this.settle(
      error(
        new ToolError(isToolError(aborted) ? aborted.reason : "handler_exit", {
          message: `${said} ${when}: the handler did not run`,
          toolName,
          toolCallId,
          metadata: { ...(isToolError(aborted) ? aborted.metadata : {}), started: false },
          ...(aborted !== undefined && !isToolError(aborted) && { cause: aborted }),
        }),
      ),
    );
  }

  /** Terminate `thread`, which runs it, if it has not settled `grace` ms after its signal aborted. */
  startGrace(thread: PoolThread, grace: number): void {
    const kill = (): void => {
      this.killed = true;
      void thread.kill(new Error("terminated after the grace period"));
    };
    if (grace === 0) kill();
    else this.grace = setTimeout(kill, grace);
  }

  /** Hand what the handler reported or logged to the runner's `ctx.progress` or `ctx.log`, which check it as in-process. */
  reported(message: { readonly type: "progress"; readonly update: WireProgress } | { readonly type: "log"; readonly entry: WireProgress }): void {
    if (message.type === "progress") this.ctx.progress(unwire(message.update) as ProgressUpdate);
    else this.ctx.log(unwire(message.entry) as LogEntry);
  }

  /** Its thread is gone: terminated `grace` ms after its signal aborted (`killed`), or dead of `why`. */
  threadGone(why: Error, grace: number): void {
    if (!this.killed) {
      this.exit(`its worker thread died: ${why.message}`, why);
      return;
    }
    reportFate(this.ctx, "killed");
    this.exit(`its worker thread was terminated ${grace} ms after its signal aborted`, this.abortReason);
  }

  /**
   * The message that runs it on a thread as handler number `handler`, defined to the thread
   * (`definition`) the first time it is sent it: what of `ctx` can travel, and the part of the
   * context the tool chose. Throws what the tool's `context` function throws.
   */
  callMessage(handler: number, definition: HandlerDefinition | undefined): CallMessage {
    const { ctx } = this;
    const pick = this.handler.context;
    const context = pick === undefined ? ctx.context : pick(ctx.context);
    const { sessionId, requestId, toolCall } = ctx;
    const plain = isPlainCall(toolCall);
    const [call, name, args] = plain ? [toolCall.id, toolCall.name, toolCall.arguments] : [toolCall, undefined, undefined];
    return definition === undefined
      ? [this.id, handler, this.args, call, name, args, context, sessionId, requestId]
      : [this.id, handler, this.args, call, name, args, context, sessionId, requestId, definition];
  }

  /** Answer with the result its thread sent, or `invalid_return` saying what could not cross. */
  answer(message: ResultMessage): void {
    const decoded = decodeResult(message.length === 2 ? { type: "ok", value: message[1] } : message[1]);
    if (decoded.ok) this.settle(decoded.value);
    else
      this.settle(
        error(new ToolError("invalid_return", { toolName: this.tool.name, toolCallId: this.ctx.toolCall.id, metadata: { crossing: decoded.problem } })),
      );
  }
}

/**
 * Whether a tool call is its `id`, `name` and `arguments` alone, in that order, so that it may
 * travel as those three values and be built again the same (see {@link CallMessage}).
 */
function isPlainCall(call: ToolCall): boolean {
  let at = 0;
  for (const key in call) {
    if (key !== PLAIN_CALL_KEYS[at]) return false;
    at++;
  }
  return at === 3 && typeof call.id === "string";
}

const PLAIN_CALL_KEYS: readonly string[] = ["id", "name", "arguments"];

/** A value a worker sent as {@link WireProgress}, as the handler passed it (a function or symbol by its name). */
function unwire(wire: WireProgress): unknown {
  if (wire.kind === "value") return decodeThrown(wire.value);
  if (wire.kind === "symbol") return Symbol(wire.name);
  return Object.defineProperty(() => {}, "name", { value: wire.name });
}
