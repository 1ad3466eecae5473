import type { TokenUsage } from "../types.js";
import { isPlainRecord } from "../../util/safe.js";

/** Whether a `usage` event's counts are what the type says: non-negative numbers. */
export function isTokenUsage(usage: unknown): usage is TokenUsage {
  if (!isPlainRecord(usage)) return false;
  const count = (v: unknown, optional: boolean) => (optional && v === undefined) || (typeof v === "number" && Number.isFinite(v) && v >= 0);
  return count(usage.inputTokens, false) && count(usage.outputTokens, false) && count(usage.cachedInputTokens, true) && count(usage.reasoningTokens, true);
}

/** `sum` plus `usage`; a part (cached, reasoning) appears once some call reported it. */
export function addUsage(sum: TokenUsage | undefined, usage: TokenUsage): TokenUsage {
  const out: { -readonly [K in keyof TokenUsage]: TokenUsage[K] } = {
    inputTokens: (sum?.inputTokens ?? 0) + usage.inputTokens,
    outputTokens: (sum?.outputTokens ?? 0) + usage.outputTokens,
  };
  const cached = sum?.cachedInputTokens ?? usage.cachedInputTokens;
  if (cached !== undefined) out.cachedInputTokens = (sum?.cachedInputTokens ?? 0) + (usage.cachedInputTokens ?? 0);
  const reasoning = sum?.reasoningTokens ?? usage.reasoningTokens;
  if (reasoning !== undefined) out.reasoningTokens = (sum?.reasoningTokens ?? 0) + (usage.reasoningTokens ?? 0);
  return out;
}
