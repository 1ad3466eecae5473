import { metrics, trace, type Meter, type MeterProvider, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { describe } from "../util/safe.js";

/** Options of {@link telemetry}. All optional. */
export interface TelemetryOptions {
  /** Where spans go. Default: the global provider (`trace.setGlobalTracerProvider`, or the Node SDK's). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global provider, looked up when a run starts. */
  meterProvider?: MeterProvider;
  /**
   * Record argument and result contents (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`,
   * the `ask_user` question, a handler's own error text). Off by default: they may hold secrets.
   * `true` truncates each to 1,024 characters; `{ maxLength }` picks the limit.
   */
  recordContent?: boolean | { maxLength?: number };
  /** `gen_ai.agent.name` on the loop's spans and on tool spans under it. */
  agentName?: string;
  /** `gen_ai.provider.name` on model-call spans (`openai`, `anthropic`, ...). */
  providerName?: string;
  /** `gen_ai.request.model` on model-call spans, and in their name: `chat gpt-4.1`. */
  requestModel?: string;
}

/** {@link TelemetryOptions} checked, with defaults filled in. */
export interface TelemetryConfig {
  readonly tracer: Tracer;
  /** A meter from the configured provider, or from whatever is global when a run starts. */
  meter(): Meter;
  /** Maximum characters of recorded content; `0` when content is not recorded. */
  readonly maxContent: number;
  readonly agentName: string | undefined;
  readonly providerName: string | undefined;
  readonly requestModel: string | undefined;
}

const SCOPE = "toolrx";
const DEFAULT_MAX_CONTENT = 1_024;

/**
 * Check the options once, up front.
 *
 * @throws {TypeError} naming the option and what it got.
 */
export function resolveTelemetry(options: TelemetryOptions | undefined): TelemetryConfig {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`Expected telemetry options to be an object, got ${describe(options)}`);
  }
  const { tracerProvider, meterProvider, recordContent = false } = options;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== "function") {
    throw new TypeError(`Expected \`tracerProvider\` to be an OpenTelemetry TracerProvider, got ${describe(tracerProvider)}`);
  }
  if (meterProvider !== undefined && typeof meterProvider?.getMeter !== "function") {
    throw new TypeError(`Expected \`meterProvider\` to be an OpenTelemetry MeterProvider, got ${describe(meterProvider)}`);
  }
  let maxContent: number;
  if (typeof recordContent === "boolean") {
    maxContent = recordContent ? DEFAULT_MAX_CONTENT : 0;
  } else if (typeof recordContent === "object" && recordContent !== null && !Array.isArray(recordContent)) {
    const { maxLength = DEFAULT_MAX_CONTENT } = recordContent;
    if (!(Number.isInteger(maxLength) && maxLength > 0)) {
      throw new TypeError(`Expected \`recordContent.maxLength\` to be a positive integer, got ${describe(maxLength)}`);
    }
    maxContent = maxLength;
  } else {
    throw new TypeError(`Expected \`recordContent\` to be a boolean or { maxLength }, got ${describe(recordContent)}`);
  }
  for (const key of ["agentName", "providerName", "requestModel"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`Expected \`${key}\` to be a string, got ${describe(value)}`);
    }
  }
  // The trace API hands out proxies that follow a provider registered later; the metrics API
  // does not, so the meter is looked up when a run starts rather than now.
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  let fixedMeter: Meter | undefined;
  return {
    tracer,
    meter: () => {
      if (meterProvider === undefined) return metrics.getMeter(SCOPE);
      fixedMeter ??= meterProvider.getMeter(SCOPE);
      return fixedMeter;
    },
    maxContent,
    agentName: options.agentName,
    providerName: options.providerName,
    requestModel: options.requestModel,
  };
}
