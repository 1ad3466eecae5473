import type { ModelEvent, TokenUsage } from "../index.js";

/** The `usage` event of a turn, with the response's id and model when the provider gave them. */
export function usageEvent(usage: TokenUsage, responseId: unknown, responseModel: unknown): ModelEvent {
  return {
    type: "usage",
    usage,
    ...(typeof responseId === "string" && responseId !== "" ? { responseId } : {}),
    ...(typeof responseModel === "string" && responseModel !== "" ? { responseModel } : {}),
  };
}

/** A token count from a provider's usage object: a finite non-negative number, else `undefined`. */
export function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `usage` with the optional parts that are known. */
export function tokenUsage(inputTokens: number, outputTokens: number, cachedInputTokens: number | undefined, reasoningTokens: number | undefined): TokenUsage {
  return {
    inputTokens,
    outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}
