import { diag } from "@opentelemetry/api";

/**
 * Run `fn`, and never let it throw into the runner: telemetry must not change what a call
 * answers, even when a user value it reads (an error's getter, a hostile description) throws.
 * What it threw goes to OpenTelemetry's own diagnostics logger.
 */
export function guarded<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      fn(...args);
    } catch (e) {
      diag.error("toolrx/otel: could not record telemetry", e);
    }
  };
}
