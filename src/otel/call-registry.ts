import { context, type Context, type Span } from "@opentelemetry/api";
import type { ToolExecutor } from "../executor.js";
import type { OnToolError } from "../policy.js";
import type { Tool } from "../tool.js";
import { guarded } from "./guard.js";

/** One call's span while it runs, from `started` to its tail event. */
export interface CallRecord {
  readonly span: Span;
  /** The parent's context with this call's span set: what the handler runs in (none: as is). */
  readonly context: Context | undefined;
  readonly toolCallId: string;
  readonly toolName: string;
  /** `performance.now()` at `started`. */
  readonly start: number;
  executed: boolean;
  /** The error term the policy function was asked about, when it was. */
  policyError: unknown;
  asked: boolean;
  /** The next running call with the same id (ids should be unique; models do not always agree). */
  sameId: CallRecord | undefined;
}

/**
 * The running calls of one subscription by id, so the executor and the policy, which see a call
 * but not its events, find the span its `started` event opened. Ids are the link because they
 * are what both sides see; calls sharing an id are served oldest first.
 */
export class CallRegistry {
  readonly #byId = new Map<string, CallRecord>();

  add(record: CallRecord): void {
    const first = this.#byId.get(record.toolCallId);
    if (first === undefined) {
      this.#byId.set(record.toolCallId, record);
      return;
    }
    let last = first;
    while (last.sameId !== undefined) last = last.sameId;
    last.sameId = record;
  }

  remove(record: CallRecord): void {
    const first = this.#byId.get(record.toolCallId);
    if (first === record) {
      if (record.sameId === undefined) this.#byId.delete(record.toolCallId);
      else this.#byId.set(record.toolCallId, record.sameId);
      return;
    }
    for (let r = first; r !== undefined; r = r.sameId) {
      if (r.sameId === record) {
        r.sameId = record.sameId;
        return;
      }
    }
  }

  /** The oldest running call with this id that `fresh` accepts, else the oldest with this id. */
  find(toolCallId: string, fresh: (record: CallRecord) => boolean): CallRecord | undefined {
    const first = this.#byId.get(toolCallId);
    for (let r = first; r !== undefined; r = r.sameId) if (fresh(r)) return r;
    return first;
  }

  /**
   * `inner`, run inside the call's span context, so spans the handler starts (an HTTP call, a DB
   * query) nest under the tool span. Only the synchronous part is wrapped: an async context
   * manager carries the context into the handler's awaits.
   */
  executor(inner: ToolExecutor): ToolExecutor {
    return {
      execute: (tool, args, ctx) => {
        const record = this.find(ctx.toolCall.id, notExecuted);
        if (record === undefined) return inner.execute(tool, args, ctx);
        record.executed = true;
        if (record.span.isRecording()) describeTool(record.span, tool);
        const { context: callContext } = record;
        if (callContext === undefined) return inner.execute(tool, args, ctx);
        return context.with(callContext, inner.execute, inner, tool, args, ctx);
      },
    };
  }

  /** A policy function that also notes the error term it was asked about on the call's record. */
  policy(inner: Exclude<OnToolError, string>): Exclude<OnToolError, string> {
    return (call, error) => {
      const record = this.find(call.id, notAsked);
      if (record !== undefined) {
        record.asked = true;
        record.policyError = error;
      }
      return inner(call, error);
    };
  }
}

/** The tool's description on its span; a resolver's tool is the user's object, whose getter may throw. */
const describeTool = guarded((span: Span, tool: Tool) => {
  const { description } = tool;
  if (typeof description === "string" && description !== "") span.setAttribute("gen_ai.tool.description", description);
});

function notExecuted(record: CallRecord): boolean {
  return !record.executed;
}

function notAsked(record: CallRecord): boolean {
  return !record.asked;
}
