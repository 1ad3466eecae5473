import { context, createTraceState, isSpanContextValid, type SpanContext, trace } from "@opentelemetry/api";

/**
 * W3C trace context (`traceparent`, `tracestate`) as MCP 2026-07-28 carries it in a request's
 * `_meta`: what `toolrx/mcp` takes as `telemetry.traceContext`, so that `mcpTools` sends the
 * calling span's context and `serveTools` continues it. Written here, not through the global
 * propagator, so it works whether or not an app registered one.
 */
export interface TraceContext {
  /** `{ traceparent, tracestate? }` of the span active now; `undefined` without a valid one. */
  inject(): Record<string, string> | undefined;
  /**
   * Run `fn` with the remote span that `carrier`'s `traceparent` (and `tracestate`) names as the
   * active parent. A missing or malformed `traceparent` is ignored, as W3C says: `fn` runs in the
   * context active now, and its spans start a trace of their own.
   */
  continue<T>(carrier: Readonly<Record<string, unknown>> | undefined, fn: () => T): T;
}

/** version-traceid-parentid-flags; a version other than 00 may add fields after a dash. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The one {@link TraceContext}: it holds no state. */
export const traceContext: TraceContext = /* @__PURE__ */ Object.freeze({
  inject(): Record<string, string> | undefined {
    const span = trace.getSpanContext(context.active());
    if (span === undefined || !isSpanContextValid(span)) return undefined;
    const carrier: Record<string, string> = { traceparent: `00-${span.traceId}-${span.spanId}-0${(span.traceFlags & 1).toString(16)}` };
    const state = span.traceState?.serialize();
    if (state !== undefined && state !== "") carrier.tracestate = state;
    return carrier;
  },
  continue<T>(carrier: Readonly<Record<string, unknown>> | undefined, fn: () => T): T {
    const remote = remoteOf(carrier);
    return remote === undefined ? fn() : context.with(trace.setSpanContext(context.active(), remote), fn);
  },
});

/** The span context a carrier names, or `undefined` for one W3C says to ignore. */
function remoteOf(carrier: Readonly<Record<string, unknown>> | undefined): SpanContext | undefined {
  const header = carrier?.traceparent;
  if (typeof header !== "string") return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId = "", spanId = "", flags = "00", rest] = match;
  // "ff" is forbidden; version 00 has exactly four fields.
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  const remote: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 1, isRemote: true };
  if (!isSpanContextValid(remote)) return undefined; // all-zero ids
  const state = carrier?.tracestate;
  return typeof state === "string" && state !== "" ? { ...remote, traceState: createTraceState(state) } : remote;
}
