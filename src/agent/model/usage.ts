import { isPlainRecord } from "../../util/safe.js";

/**
 * Tokens a model call consumed, as the provider counted them. `cachedInputTokens` is part of
 * `inputTokens` (read from the provider's prompt cache), `reasoningTokens` part of
 * `outputTokens`: sum the two totals, never the parts on top of them.
 */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

/**
 * Where some of a run's tokens went, one entry per source: narrow on `source`. `"model"` is the
 * run's own model calls, summed; `"subagent"` is one call of an `agentTool`, with the subagent's
 * whole usage (its own subagents' included) and its own breakdown.
 *
 * @example
 * for (const share of result.usageBreakdown ?? []) {
 *   if (share.source === "subagent") console.log(share.toolName, share.toolCallId, share.usage.outputTokens);
 * }
 */
export type UsageSource =
  | { readonly source: "model"; readonly usage: TokenUsage }
  | {
      readonly source: "subagent";
      /** The parent's turn the call ran in. */
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly usage: TokenUsage;
      readonly breakdown: readonly UsageSource[];
    };

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
