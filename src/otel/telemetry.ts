import { traceContext, type TraceContext } from "./trace-context.js";
import { resolveTelemetry, type TelemetryOptions } from "./telemetry-options.js";
import { tracedRunAgent, tracedStreamAgent } from "./traced-agent.js";
import { tracedExecuteToolCalls, tracedRunToolCalls, tracedStreamToolCalls } from "./traced-tool-calls.js";
import type { executeToolCalls, runAgent, runToolCalls, streamAgent, streamToolCalls } from "../index.js";

/** toolrx's runners, traced: the same functions, signatures and behaviour, plus spans and metrics. */
export interface Telemetry {
  /** `streamToolCalls` with an `execute_tool` span per call. */
  readonly streamToolCalls: typeof streamToolCalls;
  /** `runToolCalls` with an `execute_tool` span per call. */
  readonly runToolCalls: typeof runToolCalls;
  /** The `executeToolCalls` operator with an `execute_tool` span per call. */
  readonly executeToolCalls: typeof executeToolCalls;
  /** `streamAgent` with an `invoke_agent` span per run, a `turn` span per turn, and the model call and tool calls under it. */
  readonly streamAgent: typeof streamAgent;
  /** `runAgent`, traced as `streamAgent` is. */
  readonly runAgent: typeof runAgent;
  /**
   * W3C trace context across an MCP call: give this `Telemetry` to `mcpTools` and `serveTools`
   * (`telemetry` option) and a served call's spans continue the calling span's trace.
   */
  readonly traceContext: TraceContext;
}

/**
 * Turn on OpenTelemetry for toolrx: returns the runners and the agent loop, traced. Each call gets an
 * `execute_tool {tool}` span (GenAI semantic conventions) under the span active when you
 * subscribe, its handler runs inside it (so an HTTP call or a DB query it makes nests under it),
 * and the call's duration, queue wait, timeouts and the calls in flight go to metrics. Spans and
 * metrics go to the global providers unless you pass your own. The core never imports
 * `@opentelemetry/api`: code that does not use this subpath pays nothing.
 *
 * @throws {TypeError} naming the option, for invalid options.
 *
 * @example
 * import { telemetry } from "toolrx/otel";
 *
 * const { runToolCalls } = telemetry({ recordContent: { maxLength: 500 } });
 * await runToolCalls([{ id: "c1", name: "weather", arguments: { city: "Oslo" } }], [weather]);
 * // one span: "execute_tool weather" { gen_ai.operation.name: "execute_tool", gen_ai.tool.name: "weather", ... }
 */
export function telemetry(options?: TelemetryOptions): Telemetry {
  const config = resolveTelemetry(options);
  const agent = tracedStreamAgent(config);
  const stream = tracedStreamToolCalls(config, agent);
  return Object.freeze({
    streamToolCalls: stream,
    runToolCalls: tracedRunToolCalls(stream),
    executeToolCalls: tracedExecuteToolCalls(stream),
    streamAgent: agent,
    runAgent: tracedRunAgent(agent),
    traceContext,
  });
}
