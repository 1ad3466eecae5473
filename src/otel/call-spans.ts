import { INVALID_SPAN_CONTEXT, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import type { CallRegistry } from "./call-registry.js";
import type { CallRecord } from "./call-record.js";
import { epochOf } from "./clock.js";
import { endSteps } from "./call-reports.js";
import { contentText, errorMessageOf, errorTypeOf } from "./error-type.js";
import { guarded } from "./guard.js";
import type { Instruments } from "./instruments.js";
import type { QueueClock } from "./queue-clock.js";
import { ERROR_CANCELLED, EVENT_ASK_USER, EVENT_CANCELLED, type CallOutcome } from "./semconv.js";
import type { TelemetryConfig } from "./telemetry-options.js";
import { isToolError, type ToolEvent } from "../index.js";

// Attribute names are written out as literals on this path (see semconv.ts for what each
// means): V8 builds an object literal with literal keys from a template, one with computed keys
// property by property.

/** A call's record, with what its `completed` event said. */
interface RunningCall extends CallRecord {
  readonly index: number;
  /** The error term that went to the policy, if any. */
  errorTerm: unknown;
  failed: boolean;
}

/**
 * The tool spans of one stream of {@link ToolEvent}s (a batch, or one turn of the loop): a span
 * opens at `started` (the call took its slot), under `parent`, and ends at the call's tail event,
 * carrying what the events tell: the outcome, the policy's decision, a halt, a timeout's deadline.
 * Whatever is still open when the stream lets go ends as `cancelled`, so no span stays open.
 *
 * A span the tracer does not record (no SDK, or sampled out) costs no attributes; metrics are
 * recorded either way.
 */
export class CallSpans {
  readonly #config: TelemetryConfig;
  readonly #instruments: Instruments;
  readonly #registry: CallRegistry;
  readonly #parent: Context;
  readonly #turn: number | undefined;
  readonly #clock: QueueClock;
  readonly #running = new Map<number, RunningCall>();

  constructor(config: TelemetryConfig, instruments: Instruments, registry: CallRegistry, parent: Context, clock: QueueClock, turn?: number) {
    this.#config = config;
    this.#instruments = instruments;
    this.#registry = registry;
    this.#parent = parent;
    this.#clock = clock;
    this.#turn = turn;
  }

  /** Whether a call's span is still open. */
  get open(): boolean {
    return this.#running.size > 0;
  }

  observe(event: ToolEvent): void {
    if (event.type === "tool_execution_started") {
      this.#start(event.index, event.toolCallId, event.toolName, event.arguments);
      return;
    }
    const call = this.#running.get(event.index);
    if (call === undefined) return;
    const { maxContent } = this.#config;
    switch (event.type) {
      case "tool_execution_completed": {
        const { result } = event;
        if (result.type === "error") {
          call.failed = true;
          call.errorTerm = result.reason;
        } else if (call.asked) {
          // The policy function answered `{ continue: value }`: the call failed, the model sees a success.
          call.failed = true;
          call.errorTerm = call.policyError;
        }
        return;
      }
      case "tool_result_encoded": {
        if (!call.span.isRecording()) {
          this.#end(call, event.isError ? "error" : "ok", undefined);
          return;
        }
        const attributes: Attributes = {};
        if (call.failed) attributes["toolrx.policy.decision"] = event.isError ? "continue" : "continue_with_value";
        if (!event.isError && maxContent > 0) attributes["gen_ai.tool.call.result"] = contentText(event.content, maxContent);
        this.#end(call, event.isError ? "error" : "ok", attributes);
        return;
      }
      case "ask_user_requested":
        if (call.span.isRecording()) {
          call.span.addEvent(EVENT_ASK_USER, maxContent > 0 ? { question: contentText(event.question, maxContent) } : undefined);
        }
        this.#end(call, "ask_user", {});
        return;
      case "tool_halt": {
        if (call.failed) {
          this.#end(call, "error", { "toolrx.policy.decision": "halt" });
          return;
        }
        const attributes: Attributes = { "toolrx.halt.reason": event.reason };
        if (maxContent > 0) attributes["gen_ai.tool.call.result"] = contentText(event.content, maxContent);
        this.#end(call, "halt", attributes);
        return;
      }
    }
  }

  /** The stream let go (unsubscribe, `opts.signal`, an input error): end every open span as cancelled. */
  abandon(reason: unknown): void {
    if (this.#running.size === 0) return;
    for (const call of this.#running.values()) {
      call.span.addEvent(EVENT_CANCELLED);
      call.failed = true;
      call.errorTerm = reason;
      this.#end(call, "cancelled", {});
    }
    this.#running.clear();
  }

  #start(index: number, toolCallId: string, toolName: string, args: Record<string, unknown>): void {
    const now = performance.now();
    const waited = now - this.#clock.queuedAt(index, toolCallId, now);
    const parent = this.#parent;
    // What a sampler may decide on, at creation, as the conventions ask; the rest only if recorded.
    const span = this.#config.tracer.startSpan(
      `execute_tool ${toolName}`,
      { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": toolName }, startTime: epochOf(now) },
      parent,
    );
    const recording = span.isRecording();
    if (recording) {
      const { agentName, maxContent } = this.#config;
      const attributes: Attributes = {
        "gen_ai.tool.call.id": toolCallId,
        "gen_ai.tool.type": "function",
        "toolrx.call.index": index,
        "toolrx.call.queue_wait_ms": waited,
      };
      if (agentName !== undefined) attributes["gen_ai.agent.name"] = agentName;
      if (this.#turn !== undefined) attributes["toolrx.turn"] = this.#turn;
      if (maxContent > 0) attributes["gen_ai.tool.call.arguments"] = contentText(args, maxContent);
      span.setAttributes(attributes);
    }
    const call: RunningCall = {
      index,
      span,
      // A span with no valid context (no SDK) has nothing to hand down: the handler keeps the parent's.
      context: recording || isValid(span.spanContext()) ? trace.setSpan(parent, span) : undefined,
      toolCallId,
      toolName,
      start: now,
      executed: false,
      policyError: undefined,
      asked: false,
      attempts: 1,
      progressReports: 0,
      steps: undefined,
      sameId: undefined,
      errorTerm: undefined,
      failed: false,
    };
    this.#running.set(index, call);
    this.#registry.add(call);
    const { activeCalls, queueWait } = this.#instruments;
    activeCalls.set(toolName, (activeCalls.get(toolName) ?? 0) + 1);
    queueWait.record(waited / 1000, { "gen_ai.tool.name": toolName });
  }

  /** End the span with `attributes` (undefined: not recording) and record the call's metrics. */
  #end(call: RunningCall, outcome: CallOutcome, attributes: Attributes | undefined): void {
    const now = performance.now();
    const { span, toolName } = call;
    const metric: Attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": toolName, "toolrx.call.outcome": outcome };
    try {
      endSteps(call);
      if (call.failed) this.#failed(call, outcome, attributes, metric, now);
      if (attributes !== undefined && span.isRecording()) {
        attributes["toolrx.call.outcome"] = outcome;
        if (call.attempts > 1) attributes["toolrx.call.attempts"] = call.attempts;
        if (call.progressReports > 0) attributes["toolrx.progress.reports"] = call.progressReports;
        span.setAttributes(attributes);
      }
    } finally {
      // Whatever a user value did above, the span ends and the call is counted.
      span.end(epochOf(now));
      this.#running.delete(call.index);
      this.#registry.remove(call);
      const { activeCalls, toolDuration } = this.#instruments;
      activeCalls.set(toolName, (activeCalls.get(toolName) ?? 1) - 1);
      toolDuration.record((now - call.start) / 1000, metric);
    }
  }

  /** What a failed call's span and metrics say: error.type, the deadline that fired, the exception. */
  #failed(call: RunningCall, outcome: CallOutcome, attributes: Attributes | undefined, metric: Attributes, now: number): void {
    const { span, toolName } = call;
    const term = call.errorTerm;
    const errorType = outcome === "cancelled" ? ERROR_CANCELLED : errorTypeOf(term);
    metric["error.type"] = errorType;
    const timedOut = isToolError(term) && term.reason === "timeout";
    if (timedOut) this.#instruments.timeouts.add(1, { "gen_ai.tool.name": toolName });
    if (attributes === undefined || !span.isRecording()) return;
    // A retried call's final error counts its attempts, whether or not each was reported.
    const attempts = isToolError(term) ? term.metadata.attempts : undefined;
    if (typeof attempts === "number" && attempts > call.attempts) call.attempts = attempts;
    attributes["error.type"] = errorType;
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessageOf(term, this.#config.maxContent) });
    if (timedOut) {
      // Which deadline fired (`toolTimeout`, `toolIdleTimeout`, `totalTimeout`), its length, and
      // whether the handler had finished (too late) or was abandoned still running.
      const { deadline = "toolTimeout", settled } = term.metadata;
      if (typeof deadline === "string") {
        attributes["toolrx.deadline"] = deadline;
        const ms = term.metadata[deadline];
        if (typeof ms === "number") attributes["toolrx.deadline.ms"] = ms;
      }
      if (typeof settled === "boolean") attributes["toolrx.timeout.settled"] = settled;
    } else if (isToolError(term) && (term.reason === "handler_raised" || term.reason === "handler_exit") && term.cause instanceof Error) {
      recordException(span, term.cause, epochOf(now));
    }
  }
}

/** The SDK reads the error's fields, which may be getters that throw. */
const recordException = guarded((span: Span, error: Error, at: number) => span.recordException(error, at));

/** Whether a non-recording span carries a context worth handing down (a sampled-out trace does). */
function isValid(spanContext: ReturnType<Span["spanContext"]>): boolean {
  // The API's no-op spans share this object; skip the regex checks for them.
  return spanContext !== INVALID_SPAN_CONTEXT && isSpanContextValid(spanContext);
}
