import { isRecord } from "../shape.js";
import type { AssistantMessage, ReasoningPart } from "../../index.js";

/** A thinking block as the API sent it, to send back. */
export type ThinkingBlock = { type: "thinking"; thinking: string; signature: string } | { type: "redacted_thinking"; data: string };

/** The provider name of the reasoning an Anthropic model gave: `toMessages` sends back these alone. */
export const ANTHROPIC = "anthropic";

/**
 * A turn's own thinking blocks, as the API sent them: a `thinking` block with its text and
 * `signature`, a `redacted_thinking` block with its `data`. Reasoning of another provider (or
 * text alone) is left out, since the API refuses a thinking block it did not sign.
 */
export function thinkingBlocks(message: AssistantMessage): ThinkingBlock[] {
  const blocks: ThinkingBlock[] = [];
  for (const part of message.reasoning ?? []) {
    const data = part.data;
    if (part.provider !== ANTHROPIC || data === undefined) continue;
    if (data.type === "redacted_thinking" && typeof data.data === "string") blocks.push({ type: "redacted_thinking", data: data.data });
    else if (typeof data.signature === "string") blocks.push({ type: "thinking", thinking: part.text, signature: data.signature });
  }
  return blocks;
}

/** A stored `thinking` or `redacted_thinking` block as a reasoning piece; `undefined` for any other block. */
export function reasoningOfBlock(block: unknown): ReasoningPart | undefined {
  if (!isRecord(block)) return undefined;
  if (block.type === "thinking" && typeof block.thinking === "string")
    return { text: block.thinking, provider: ANTHROPIC, data: { type: "thinking", signature: typeof block.signature === "string" ? block.signature : "" } };
  if (block.type === "redacted_thinking") return { text: "", provider: ANTHROPIC, data: { type: "redacted_thinking", data: block.data } };
  return undefined;
}
