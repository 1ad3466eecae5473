import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { from, Observable } from "rxjs";
import { CallRegistry } from "./call-registry.js";
import { CallSpans } from "./call-spans.js";
import { epochOf } from "./clock.js";
import { errorMessageOf, errorTypeOf } from "./error-type.js";
import { guarded } from "./guard.js";
import type { Instruments } from "./instruments.js";
import { Arrivals } from "./queue-clock.js";
import { ERROR_CANCELLED } from "./semconv.js";
import type { TelemetryConfig } from "./telemetry-options.js";
import { tracedOptions } from "./traced-tool-calls.js";
import { usageAttributes } from "./usage-attributes.js";
import type { AgentEvent, AgentOptions, Model, ModelEvent, ModelRequest } from "../index.js";
import { isPlainRecord } from "../util/safe.js";
import type { SubagentRunner } from "../internal.js";

/** The open spans of the current turn. */
interface TurnSpans {
  readonly turn: number;
  readonly span: Span;
  readonly context: Context;
  readonly calls: CallSpans;
  model: ModelCall | undefined;
  toolCalls: number;
}

/**
 * The spans of one agent run (one subscription to `streamAgent`): `invoke_agent` for the run,
 * under the span active at subscribe; a `turn` span per turn under it; under each turn, the
 * model call (`chat`, kind CLIENT) and the turn's `execute_tool` spans, siblings, since tools
 * start while the model still streams. Built from the run's events, a wrapped `model` and the
 * wrapped executor: the loop itself knows nothing of it.
 */
export class AgentSpans {
  readonly #config: TelemetryConfig;
  readonly #instruments: Instruments;
  readonly #registry: CallRegistry;
  readonly #arrivals = new Arrivals<string>(true);
  readonly #run: Span;
  readonly #context: Context;
  readonly #start = performance.now();
  #turn: TurnSpans | undefined;
  #over = false;

  /** `subagents`: the traced loop, which the run's `agentTool` calls run their subagents with. */
  constructor(config: TelemetryConfig, instruments: Instruments, parent: Context, options: AgentOptions, subagents: SubagentRunner) {
    this.#config = config;
    this.#instruments = instruments;
    this.#registry = new CallRegistry(config, instruments, subagents);
    const { agentName, providerName, requestModel } = config;
    const attributes: Attributes = { "gen_ai.operation.name": "invoke_agent" };
    if (agentName !== undefined) attributes["gen_ai.agent.name"] = agentName;
    if (providerName !== undefined) attributes["gen_ai.provider.name"] = providerName;
    if (requestModel !== undefined) attributes["gen_ai.request.model"] = requestModel;
    if (typeof options.sessionId === "string") attributes["gen_ai.conversation.id"] = options.sessionId;
    this.#run = config.tracer.startSpan(
      agentName === undefined ? "invoke_agent" : `invoke_agent ${agentName}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: epochOf(this.#start) },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#run);
  }

  /** The options the loop gets: the user's, with the executor, the policy and the model traced. */
  options(options: AgentOptions): AgentOptions {
    return { ...options, ...tracedOptions(options, this.#registry), model: this.#model(options.model) };
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case "turn_started":
        this.#startTurn(event.turn);
        return;
      case "tool_event": {
        const turn = this.#turn;
        if (turn === undefined) return;
        if (event.event.type === "tool_execution_started") turn.toolCalls++;
        turn.calls.observe(event.event);
        return;
      }
      case "turn_completed":
        this.#endTurn(undefined);
        return;
      case "agent_halted": {
        // `error` and `cancelled` end the run badly; every other reason is the loop doing its job.
        const { haltedReason, metadata } = event;
        let failure: Failure | undefined;
        if (haltedReason === "error") failure = { reason: metadata.error, cancelled: false };
        else if (haltedReason === "cancelled") failure = { reason: metadata.reason, cancelled: true };
        this.#endTurn(failure);
        this.#end(haltedReason, failure);
        return;
      }
      case "text_delta":
        return;
    }
  }

  /** The consumer let go (`cancelled`), or the stream failed: end everything still open. */
  abandon(reason: unknown, cancelled: boolean): void {
    const failure = { reason, cancelled };
    this.#endTurn(failure);
    this.#end(undefined, failure);
  }

  #startTurn(turn: number): void {
    this.#endTurn(undefined);
    const attributes: Attributes = { "toolrx.turn": turn };
    if (this.#config.agentName !== undefined) attributes["gen_ai.agent.name"] = this.#config.agentName;
    const span = this.#config.tracer.startSpan("turn", { kind: SpanKind.INTERNAL, attributes }, this.#context);
    const context = trace.setSpan(this.#context, span);
    const calls = new CallSpans(this.#config, this.#instruments, this.#registry, context, this.#arrivals, turn);
    this.#turn = { turn, span, context, calls, model: undefined, toolCalls: 0 };
  }

  /** End the current turn: with `failure`, whatever it left open ends with it. */
  #endTurn(failure: Failure | undefined): void {
    const turn = this.#turn;
    if (turn === undefined) return;
    this.#turn = undefined;
    turn.calls.abandon(failure?.reason);
    turn.model?.settle(failure);
    turn.span.setAttribute("toolrx.turn.tool_calls", turn.toolCalls);
    if (failure !== undefined) fail(turn.span, failure, this.#config.maxContent);
    turn.span.end();
  }

  #end(haltedReason: string | undefined, failure: Failure | undefined): void {
    if (this.#over) return;
    this.#over = true;
    const now = performance.now();
    const metric: Attributes = { "gen_ai.operation.name": "invoke_agent" };
    if (this.#config.agentName !== undefined) metric["gen_ai.agent.name"] = this.#config.agentName;
    if (haltedReason !== undefined) {
      this.#run.setAttribute("toolrx.agent.halted_reason", haltedReason);
      metric["toolrx.agent.halted_reason"] = haltedReason;
    }
    if (failure !== undefined) metric["error.type"] = fail(this.#run, failure, this.#config.maxContent);
    this.#run.end(epochOf(now));
    this.#instruments.agentDuration.record((now - this.#start) / 1000, metric);
  }

  /**
   * The model, traced: a `chat` span per call, under the turn, the model's own work (its HTTP
   * request) nested under it, its finish reason on it. The calls it emits are timed from here.
   * A `usage` event puts the GenAI usage and response attributes on it.
   */
  #model(model: Model): Model {
    return (request: ModelRequest) => {
      const turn = this.#turn;
      const parent = turn?.context ?? this.#context;
      const { providerName, requestModel } = this.#config;
      const attributes: Attributes = { "gen_ai.operation.name": "chat", "toolrx.turn": request.turn };
      if (providerName !== undefined) attributes["gen_ai.provider.name"] = providerName;
      if (requestModel !== undefined) attributes["gen_ai.request.model"] = requestModel;
      const span = this.#config.tracer.startSpan(requestModel === undefined ? "chat" : `chat ${requestModel}`, { kind: SpanKind.CLIENT, attributes }, parent);
      const spanContext = trace.setSpan(parent, span);
      const maxContent = this.#config.maxContent;
      return new Observable<ModelEvent>((subscriber) => {
        let finished = false;
        let settled = false;
        // One way to end the span, whichever comes first: the model's own end, the loop letting
        // go, or the turn ending (a model that emits synchronously ends its turn before it completes).
        const call: ModelCall = {
          settle: (failure) => {
            if (settled) return;
            settled = true;
            if (turn?.model === call) turn.model = undefined;
            // Without a failure of its own, a model that said `finish` ended well; one that did not was cut off.
            endModel(span, failure ?? (finished ? undefined : { reason: undefined, cancelled: true }), maxContent);
          },
        };
        const settle = call.settle;
        if (turn !== undefined) turn.model = call;
        // The loop checks the model's events; a malformed one is its to report, so this only looks.
        const noteEvent = guarded((event: ModelEvent) => {
          if (!isPlainRecord(event)) return;
          if (event.type === "tool_call" && isPlainRecord(event.call) && typeof event.call.id === "string") {
            this.#arrivals.arrived(event.call.id);
          } else if (event.type === "usage") {
            span.setAttributes(usageAttributes(event));
          } else if (event.type === "finish" && typeof event.reason === "string") {
            finished = true;
            span.setAttribute("gen_ai.response.finish_reasons", [event.reason]);
            if (event.reason === "error") settle({ reason: event.error, cancelled: false });
          }
        });
        const inner = context.with(spanContext, () =>
          from(model(request)).subscribe({
            next: (event) => {
              noteEvent(event);
              subscriber.next(event);
            },
            error: (e: unknown) => {
              settle({ reason: e, cancelled: false });
              subscriber.error(e);
            },
            complete: () => {
              finished = true;
              settle(undefined);
              subscriber.complete();
            },
          }),
        );
        return () => {
          inner.unsubscribe();
          // The loop stops listening once the model said `finish`: that is a normal end.
          settle(undefined);
        };
      });
    };
  }
}

/** A model call's span, ended once, by whichever of the model, the loop or the turn is first. */
interface ModelCall {
  /** End the span: with `failure`, failed; without, well if the model said `finish`, else cancelled. */
  settle(failure: Failure | undefined): void;
}

/** Why a span ended badly: a cancellation (unsubscribe, `opts.signal`) or a failure with its reason. */
interface Failure {
  readonly reason: unknown;
  readonly cancelled: boolean;
}

/** Mark `span` failed; returns its `error.type`. */
function fail(span: Span, failure: Failure, maxContent: number): string {
  const errorType = failure.cancelled ? ERROR_CANCELLED : errorTypeOf(failure.reason);
  span.setAttribute("error.type", errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessageOf(failure.reason, maxContent) });
  if (!failure.cancelled && failure.reason instanceof Error) recordException(span, failure.reason);
  return errorType;
}

/** The SDK reads the error's fields, which may be getters that throw. */
const recordException = guarded((span: Span, error: Error) => span.recordException(error));

function endModel(span: Span, failure: Failure | undefined, maxContent: number): void {
  if (failure !== undefined) fail(span, failure, maxContent);
  span.end();
}
