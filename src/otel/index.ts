/**
 * OpenTelemetry for toolrx: spans and metrics for every tool call and every agent run and turn,
 * named per the GenAI semantic conventions. Needs `@opentelemetry/api` (an optional peer
 * dependency); the core never imports it.
 *
 * @example
 * import { telemetry } from "toolrx/otel";
 * const { runToolCalls, streamToolCalls, executeToolCalls, runAgent, streamAgent } = telemetry({ agentName: "travel" });
 */
export { telemetry, type Telemetry } from "./telemetry.js";
export type { TelemetryOptions } from "./telemetry-options.js";
export { traceContext, type TraceContext } from "./trace-context.js";
export type { CallOutcome } from "./semconv.js";
