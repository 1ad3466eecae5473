import { context } from "@opentelemetry/api";
import { defer, Observable, tap, type OperatorFunction, type Subscribable } from "rxjs";
import { CallRegistry } from "./call-registry.js";
import { CallSpans } from "./call-spans.js";
import { guarded } from "./guard.js";
import { instrumentsOf } from "./instruments.js";
import { Arrivals, queuedAtOnce } from "./queue-clock.js";
import type { TelemetryConfig } from "./telemetry-options.js";
import { collectToolCalls, type SubagentRunner } from "../internal.js";
import {
  defaultExecutor,
  executeToolCalls as coreExecuteToolCalls,
  type RunOptions,
  type RunResult,
  type runToolCalls as coreRunToolCalls,
  streamToolCalls as coreStreamToolCalls,
  type Tool,
  type ToolCall,
  type ToolEvent,
  type ToolExecutor,
  type ToolResolver,
} from "../index.js";

/**
 * The options a traced run hands the core: the user's, with the executor wrapped so handlers
 * run inside their call's span, and a policy function wrapped so the span knows what it was
 * asked about. Everything else passes through untouched.
 */
export function tracedOptions(options: RunOptions | undefined, registry: CallRegistry): RunOptions {
  const given = options ?? {};
  const executor = given.toolExecutor ?? given.engine?.toolExecutor ?? defaultExecutor;
  const { onToolError, onCallReport, settleGrace, toolExecutors } = given;
  return {
    ...given,
    toolExecutor: registry.executor(executor),
    // Each named executor too, so a call runs inside its span whichever executor its tool names.
    toolExecutors: toolExecutors === undefined ? undefined : tracedExecutors(toolExecutors, registry),
    onToolError: typeof onToolError === "function" ? registry.policy(onToolError) : onToolError,
    onCallReport: registry.reports(onCallReport),
    // A listener makes the runner watch abandoned handlers for `settleGrace`: without one of the
    // user's, tracing must not keep a process waiting 5 s after a timeout, so it watches for 0 ms.
    settleGrace: settleGrace ?? (onCallReport === undefined ? 0 : undefined),
  };
}

/** Each of `executors`, wrapped as the run's own executor is; an entry that is not an executor stays, for the core to refuse. */
function tracedExecutors(executors: Readonly<Record<string, ToolExecutor>>, registry: CallRegistry): Readonly<Record<string, ToolExecutor>> {
  if (typeof executors !== "object" || executors === null || Array.isArray(executors)) return executors;
  const traced: Record<string, ToolExecutor> = {};
  for (const [name, executor] of Object.entries(executors)) {
    traced[name] = typeof (executor as { execute?: unknown } | null)?.execute === "function" ? registry.executor(executor) : executor;
  }
  return traced;
}

/**
 * `streamToolCalls` with a span per call. Same checks, events and errors as the core's. An
 * `agentTool` call runs its subagent with `subagents` (the traced loop), under the call's span.
 */
export function tracedStreamToolCalls(config: TelemetryConfig, subagents: SubagentRunner): typeof coreStreamToolCalls {
  return function streamToolCalls(
    calls: readonly ToolCall[] | Subscribable<ToolCall>,
    tools: readonly Tool[] | ToolResolver,
    options?: RunOptions,
  ): Observable<ToolEvent> {
    // The core's own call-time checks, so bad input throws here exactly as it does untraced.
    coreStreamToolCalls(calls, tools, options);
    const streamed = !Array.isArray(calls);
    return defer(() => {
      const instruments = instrumentsOf(config.meter());
      const registry = new CallRegistry(config, instruments, subagents);
      // The span active when the user subscribes is the parent of every call's span.
      const arrivals = streamed ? new Arrivals<number>(false) : undefined;
      const clock = arrivals ?? queuedAtOnce(performance.now());
      const spans = new CallSpans(config, instruments, registry, context.active(), clock);
      const input = arrivals === undefined ? calls : noteArrivals(calls as Subscribable<ToolCall>, arrivals);
      return coreStreamToolCalls(input, tools, tracedOptions(options, registry)).pipe(
        tap({
          next: guarded((event: ToolEvent) => spans.observe(event)),
          error: guarded((e: unknown) => spans.abandon(e)),
          unsubscribe: guarded(() => spans.abandon(undefined)),
        }),
      );
    });
  };
}

/** `runToolCalls` with a span per call: the traced stream, collected as the core collects it. */
export function tracedRunToolCalls(stream: typeof coreStreamToolCalls): typeof coreRunToolCalls {
  return function runToolCalls(calls: readonly ToolCall[], tools: readonly Tool[] | ToolResolver, options?: RunOptions): Promise<RunResult> {
    return collectToolCalls(stream, calls, tools, options);
  };
}

/** The streamed calls, noting when each arrives: its queue wait runs from then to its start. */
function noteArrivals(calls: Subscribable<ToolCall>, arrivals: Arrivals<number>): Observable<ToolCall> {
  return new Observable<ToolCall>((subscriber) =>
    calls.subscribe({
      next(call) {
        arrivals.arrived();
        subscriber.next(call);
      },
      error: (e: unknown) => subscriber.error(e),
      complete: () => subscriber.complete(),
    }),
  );
}

/** The `executeToolCalls` operator, traced: the traced runner on the source's calls. */
export function tracedExecuteToolCalls(stream: typeof coreStreamToolCalls): typeof coreExecuteToolCalls {
  return function executeToolCalls(tools: readonly Tool[] | ToolResolver, options?: RunOptions): OperatorFunction<ToolCall, ToolEvent> {
    // The operator's own checks, when it is made.
    coreExecuteToolCalls(tools, options);
    return (calls: Observable<ToolCall>) => stream(calls, tools, options);
  };
}
