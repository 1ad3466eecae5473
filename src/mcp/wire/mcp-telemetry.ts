import type { streamToolCalls } from "../../index.js";
import { describe, isPlainRecord } from "../../util/safe.js";

/**
 * W3C trace context across an MCP call, as `toolrx/otel`'s `telemetry().traceContext` gives it
 * (accepted by shape: this subpath never loads OpenTelemetry). `inject` reads the span active
 * now as `{ traceparent, tracestate? }`; `continue` runs a function under the remote span a
 * request's `_meta` names.
 */
export interface McpTraceContext {
  inject(): Record<string, string> | undefined;
  continue<T>(carrier: Readonly<Record<string, unknown>> | undefined, fn: () => T): T;
}

/** `mcpTools`' `telemetry`: a `Telemetry` from `toolrx/otel`, of which it uses `traceContext`. */
export interface McpClientTelemetry {
  readonly traceContext: McpTraceContext;
}

/** `serveTools`' `telemetry`: a `Telemetry` from `toolrx/otel`: its traced runner and `traceContext`. */
export interface McpServerTelemetry extends McpClientTelemetry {
  readonly streamToolCalls: typeof streamToolCalls;
}

/** `telemetry`, checked. @throws {TypeError} naming the option. */
export function checkTelemetry<T extends McpClientTelemetry>(telemetry: T | undefined, server: boolean): T | undefined {
  if (telemetry === undefined) return undefined;
  const trace = isPlainRecord(telemetry) ? telemetry.traceContext : undefined;
  const usable =
    isPlainRecord(trace) &&
    typeof trace.inject === "function" &&
    typeof trace.continue === "function" &&
    (!server || typeof (telemetry as Partial<McpServerTelemetry>).streamToolCalls === "function");
  if (!usable) {
    throw new TypeError(
      `Expected \`telemetry\` to be toolrx/otel's telemetry() (with traceContext${server ? " and streamToolCalls" : ""}), got ${describe(telemetry)}`,
    );
  }
  return telemetry;
}
