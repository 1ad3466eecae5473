import { context, type Span } from "@opentelemetry/api";
import { recordReport } from "./call-reports.js";
import { guarded } from "./guard.js";
import type { CallRecord } from "./call-record.js";
import type { Instruments } from "./instruments.js";
import type { TelemetryConfig } from "./telemetry-options.js";
import type { CallReport, OnToolError, Tool, ToolExecutor } from "../index.js";
import { runSubagentWith, type SubagentRunner } from "../internal.js";

/**
 * The running calls of one subscription by id, so the executor and the policy, which see a call
 * but not its events, find the span its `started` event opened. Ids are the link because they
 * are what both sides see; calls sharing an id are served oldest first.
 */
export class CallRegistry {
  readonly #byId = new Map<string, CallRecord>();
  readonly #config: TelemetryConfig;
  readonly #instruments: Instruments;
  readonly #subagents: SubagentRunner | undefined;

  /** `subagents`: the traced loop, which an `agentTool` call runs its subagent with. */
  constructor(config: TelemetryConfig, instruments: Instruments, subagents: SubagentRunner | undefined) {
    this.#config = config;
    this.#instruments = instruments;
    this.#subagents = subagents;
  }

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
        if (this.#subagents !== undefined) runSubagentWith(ctx, this.#subagents);
        return context.with(callContext, inner.execute, inner, tool, args, ctx);
      },
    };
  }

  /**
   * The side-channel listener a traced run hands the runner: the report goes to the call's span
   * (progress and retries as events, recipe sub-steps as child spans), then to the user's own
   * listener, if any. `watched` says whether the user asked for late settlements (only then are
   * they counted: without a listener of their own, the runner is told not to wait for them).
   */
  reports(user: ((report: CallReport) => void) | undefined): (report: CallReport) => void {
    const record = guarded((report: CallReport) =>
      recordReport(this.find(report.toolCallId, isRunning), report, this.#config, this.#instruments, user !== undefined),
    );
    if (user === undefined) return record;
    return (report) => {
      record(report);
      user(report);
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

/**
 * The tool's description on its span, and the limit its calls queue for (`control.concurrency`:
 * a group such as a worker pool's, or the tool's own), so a trace shows what a call waited on.
 * A resolver's tool is the user's object, whose getters may throw.
 */
const describeTool = guarded((span: Span, tool: Tool) => {
  const { description, control } = tool;
  if (typeof description === "string" && description !== "") span.setAttribute("gen_ai.tool.description", description);
  const concurrency = control?.concurrency;
  if (typeof concurrency === "number") span.setAttributes({ "toolrx.concurrency.limit": `tool:${tool.name}`, "toolrx.concurrency.max": concurrency });
  else if (typeof concurrency === "object" && concurrency !== null && typeof concurrency.group === "string") {
    span.setAttributes({ "toolrx.concurrency.limit": `group:${concurrency.group}`, "toolrx.concurrency.max": concurrency.limit });
  }
});

function notExecuted(record: CallRecord): boolean {
  return !record.executed;
}

function isRunning(): boolean {
  return true;
}

function notAsked(record: CallRecord): boolean {
  return !record.asked;
}
