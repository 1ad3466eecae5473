import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { defineTool, ok, type ModelEvent } from "../../src/index.js";
import { telemetry } from "../../src/otel/index.js";
import { otelHarness } from "../support/otel-harness.js";

/** A tool that answers after a real 2 ms, so its span and the turn's have a duration to nest. */
export const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    return ok({ city, tempC: 21 });
  },
});

/** The conversation every run starts from. */
export const user = [{ role: "user" as const, content: "Weather in Oslo and Rome?" }];

/** The model's call of `weather` for `city`, as a scripted model emits it. */
export const toolCall = (id: string, city: string): ModelEvent => ({ type: "tool_call", call: { id, name: "weather", arguments: { city } } });

/** A traced agent ("travel" on openai's gpt-4.1) on an in-memory harness of its own. */
export function setup() {
  const otel = otelHarness();
  const traced = telemetry({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
    agentName: "travel",
    providerName: "openai",
    requestModel: "gpt-4.1",
  });
  return { otel, traced };
}

/** A span's id, to match it as another's parent. */
export const id = (span: ReadableSpan) => span.spanContext().spanId;
