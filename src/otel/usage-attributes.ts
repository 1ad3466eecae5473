import type { Attributes } from "@opentelemetry/api";
import { isPlainRecord } from "../util/safe.js";

/**
 * The GenAI usage and response attributes of a `usage` event, each only when it is well formed:
 * the loop reports a malformed event, telemetry only leaves it out.
 */
export function usageAttributes(event: Record<string, unknown>): Attributes {
  const attributes: Attributes = {};
  const tokens = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;
  const usage = isPlainRecord(event.usage) ? event.usage : {};
  if (tokens(usage.inputTokens)) attributes["gen_ai.usage.input_tokens"] = usage.inputTokens as number;
  if (tokens(usage.outputTokens)) attributes["gen_ai.usage.output_tokens"] = usage.outputTokens as number;
  if (tokens(usage.cachedInputTokens)) attributes["gen_ai.usage.cache_read.input_tokens"] = usage.cachedInputTokens as number;
  if (typeof event.responseId === "string") attributes["gen_ai.response.id"] = event.responseId;
  if (typeof event.responseModel === "string") attributes["gen_ai.response.model"] = event.responseModel;
  return attributes;
}
