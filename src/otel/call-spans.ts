import { SpanKind, SpanStatusCode, trace, type Attributes, type Context } from "@opentelemetry/api";
import type { ToolEvent } from "../events.js";
import { isToolError } from "../tool-error.js";
import type { CallRecord, CallRegistry } from "./call-registry.js";
import { contentText, errorMessageOf, errorTypeOf } from "./error-type.js";
import type { Instruments } from "./instruments.js";
import {
  ERROR_CANCELLED,
  ERROR_TYPE,
  EVENT_ASK_USER,
  EVENT_CANCELLED,
  GEN_AI_AGENT_NAME,
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_CALL_ARGUMENTS,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_CALL_RESULT,
  GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_TYPE,
  OPERATION_EXECUTE_TOOL,
  TOOLRX_CALL_INDEX,
  TOOLRX_CALL_OUTCOME,
  TOOLRX_CALL_QUEUE_WAIT_MS,
  TOOLRX_DEADLINE_MS,
  TOOLRX_HALT_REASON,
  TOOLRX_POLICY_DECISION,
  TOOLRX_TURN,
  type CallOutcome,
} from "./semconv.js";
import type { TelemetryConfig } from "./telemetry-options.js";

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
 */
export class CallSpans {
  readonly #config: TelemetryConfig;
  readonly #instruments: Instruments;
  readonly #registry: CallRegistry;
  readonly #parent: Context;
  readonly #turn: number | undefined;
  /** When a batch was subscribed: every call of it was queued then. */
  readonly #queuedAt: number | undefined;
  /** When each streamed-in call arrived, by arrival index, until it starts. */
  readonly #arrivals = new Map<number, number>();
  #arrived = 0;
  readonly #running = new Map<number, RunningCall>();

  constructor(config: TelemetryConfig, instruments: Instruments, registry: CallRegistry, parent: Context, queuedAt: number | undefined, turn?: number) {
    this.#config = config;
    this.#instruments = instruments;
    this.#registry = registry;
    this.#parent = parent;
    this.#queuedAt = queuedAt;
    this.#turn = turn;
  }

  /** A call came in on a streamed input; its index is its arrival order. */
  arrived(): void {
    this.#arrivals.set(this.#arrived++, performance.now());
  }

  observe(event: ToolEvent): void {
    switch (event.type) {
      case "tool_execution_started":
        this.#start(event.index, event.toolCallId, event.toolName, event.arguments);
        return;
      case "tool_execution_completed": {
        const call = this.#running.get(event.index);
        if (call === undefined) return;
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
        const call = this.#running.get(event.index);
        if (call === undefined) return;
        const attributes: Attributes = {};
        if (call.failed) attributes[TOOLRX_POLICY_DECISION] = event.isError ? "continue" : "continue_with_value";
        if (!event.isError && this.#config.maxContent > 0) {
          attributes[GEN_AI_TOOL_CALL_RESULT] = contentText(event.content, this.#config.maxContent);
        }
        this.#end(call, event.isError ? "error" : "ok", attributes);
        return;
      }
      case "ask_user_requested": {
        const call = this.#running.get(event.index);
        if (call === undefined) return;
        call.span.addEvent(EVENT_ASK_USER, this.#config.maxContent > 0 ? { question: contentText(event.question, this.#config.maxContent) } : undefined);
        this.#end(call, "ask_user", {});
        return;
      }
      case "tool_halt": {
        const call = this.#running.get(event.index);
        if (call === undefined) return;
        if (call.failed) {
          this.#end(call, "error", { [TOOLRX_POLICY_DECISION]: "halt" });
          return;
        }
        const attributes: Attributes = { [TOOLRX_HALT_REASON]: event.reason };
        if (this.#config.maxContent > 0) attributes[GEN_AI_TOOL_CALL_RESULT] = contentText(event.content, this.#config.maxContent);
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
      call.errorTerm = undefined;
      this.#end(call, "cancelled", { [ERROR_TYPE]: ERROR_CANCELLED }, reason);
    }
    this.#running.clear();
  }

  #start(index: number, toolCallId: string, toolName: string, args: Record<string, unknown>): void {
    const now = performance.now();
    let queuedAt = this.#queuedAt;
    if (queuedAt === undefined) {
      queuedAt = this.#arrivals.get(index) ?? now;
      this.#arrivals.delete(index);
    }
    const waited = now - queuedAt;
    const attributes: Attributes = {
      [GEN_AI_OPERATION_NAME]: OPERATION_EXECUTE_TOOL,
      [GEN_AI_TOOL_NAME]: toolName,
      [GEN_AI_TOOL_CALL_ID]: toolCallId,
      [GEN_AI_TOOL_TYPE]: "function",
      [TOOLRX_CALL_INDEX]: index,
      [TOOLRX_CALL_QUEUE_WAIT_MS]: waited,
    };
    const { agentName, maxContent } = this.#config;
    if (agentName !== undefined) attributes[GEN_AI_AGENT_NAME] = agentName;
    if (this.#turn !== undefined) attributes[TOOLRX_TURN] = this.#turn;
    if (maxContent > 0) attributes[GEN_AI_TOOL_CALL_ARGUMENTS] = contentText(args, maxContent);
    const span = this.#config.tracer.startSpan(
      `${OPERATION_EXECUTE_TOOL} ${toolName}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: performance.timeOrigin + now },
      this.#parent,
    );
    const call: RunningCall = {
      index,
      span,
      context: trace.setSpan(this.#parent, span),
      toolCallId,
      toolName,
      start: now,
      executed: false,
      policyError: undefined,
      asked: false,
      sameId: undefined,
      errorTerm: undefined,
      failed: false,
    };
    this.#running.set(index, call);
    this.#registry.add(call);
    const metric = { [GEN_AI_TOOL_NAME]: toolName };
    this.#instruments.activeCalls.add(1, metric);
    this.#instruments.queueWait.record(waited / 1000, metric);
  }

  #end(call: RunningCall, outcome: CallOutcome, attributes: Attributes, cancelReason?: unknown): void {
    const now = performance.now();
    const { span, toolName } = call;
    const metric: Attributes = { [GEN_AI_OPERATION_NAME]: OPERATION_EXECUTE_TOOL, [GEN_AI_TOOL_NAME]: toolName, [TOOLRX_CALL_OUTCOME]: outcome };
    attributes[TOOLRX_CALL_OUTCOME] = outcome;
    if (call.failed) {
      const term = outcome === "cancelled" ? cancelReason : call.errorTerm;
      const errorType = outcome === "cancelled" ? ERROR_CANCELLED : errorTypeOf(term);
      attributes[ERROR_TYPE] = errorType;
      metric[ERROR_TYPE] = errorType;
      if (isToolError(term)) {
        if (term.reason === "timeout") {
          const deadline = term.metadata.toolTimeout;
          if (typeof deadline === "number") attributes[TOOLRX_DEADLINE_MS] = deadline;
          this.#instruments.timeouts.add(1, { [GEN_AI_TOOL_NAME]: toolName });
        } else if ((term.reason === "handler_raised" || term.reason === "handler_exit") && term.cause instanceof Error) {
          span.recordException(term.cause, performance.timeOrigin + now);
        }
      }
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessageOf(term, this.#config.maxContent) });
    }
    span.setAttributes(attributes);
    span.end(performance.timeOrigin + now);
    this.#running.delete(call.index);
    this.#registry.remove(call);
    this.#instruments.activeCalls.add(-1, { [GEN_AI_TOOL_NAME]: toolName });
    this.#instruments.toolDuration.record((now - call.start) / 1000, metric);
  }
}
