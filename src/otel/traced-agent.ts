import { context } from "@opentelemetry/api";
import { defer, tap, type Observable } from "rxjs";
import { AgentSpans } from "./agent-spans.js";
import { guarded } from "./guard.js";
import { instrumentsOf } from "./instruments.js";
import type { TelemetryConfig } from "./telemetry-options.js";
import { type AgentEvent, type AgentOptions, type AgentResult, type runAgent as coreRunAgent, streamAgent as coreStreamAgent } from "../index.js";

/** `streamAgent` with spans for the run, each turn, each model call and each tool call. */
export function tracedStreamAgent(config: TelemetryConfig): typeof coreStreamAgent {
  return function streamAgent(options: AgentOptions): Observable<AgentEvent> {
    // The loop's own call-time checks, so bad input throws here exactly as it does untraced.
    coreStreamAgent(options);
    return defer(() => {
      // A subagent's run is traced the same way, under the span of the call that runs it.
      const spans = new AgentSpans(config, instrumentsOf(config.meter()), context.active(), options, streamAgent);
      return coreStreamAgent(spans.options(options)).pipe(
        tap({
          next: guarded((event: AgentEvent) => spans.observe(event)),
          error: guarded((e: unknown) => spans.abandon(e, false)),
          unsubscribe: guarded(() => spans.abandon(undefined, true)),
        }),
      );
    });
  };
}

/** `runAgent`, traced: the traced loop, collected as the core collects it. */
export function tracedRunAgent(stream: typeof coreStreamAgent): typeof coreRunAgent {
  return function runAgent(options: AgentOptions): Promise<AgentResult> {
    return new Promise<AgentResult>((resolve, reject) => {
      stream(options).subscribe({
        next: (event) => {
          if (event.type === "agent_halted") resolve(resultOf(event));
        },
        error: reject,
      });
    });
  };
}

function resultOf({ type: _, ...result }: Extract<AgentEvent, { type: "agent_halted" }>): AgentResult {
  return result;
}
