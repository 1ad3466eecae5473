import { firstValueFrom, toArray } from "rxjs";
import { z } from "zod";
import { defineTool, ok, type Tool, type ToolCall } from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";
import { telemetry } from "../../src/otel/index.js";
import { otelHarness } from "../support/otel-harness.js";

/** A tool that answers at once, so a span's timing is the runner's and not the handler's. */
export const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

/** A traced runner on an in-memory harness of its own, and `events` that collects one batch's stream. */
export function setup(options: { recordContent?: boolean | { maxLength?: number } } = {}) {
  const otel = otelHarness();
  const traced = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider, ...options });
  const events = (calls: readonly ToolCall[], tools: readonly Tool[], opts?: RunOptions) =>
    firstValueFrom(traced.streamToolCalls(calls, tools, opts).pipe(toArray()));
  return { otel, traced, events };
}
