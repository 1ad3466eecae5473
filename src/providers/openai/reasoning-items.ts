import { isRecord } from "../shape.js";
import type { AssistantMessage, ReasoningPart } from "../../index.js";

/** The provider name of the reasoning a Responses model gave: `toResponsesInput` sends back these alone. */
export const OPENAI_RESPONSES = "openai-responses";

/** A Responses `reasoning` item, kept as the API sent it (`id`, `summary`, `encrypted_content`…). */
export interface ReasoningItem {
  type: "reasoning";
  id: string;
  summary: { type: "summary_text"; text: string }[];
  encrypted_content?: string | null;
}

/**
 * A turn's own reasoning items, unchanged, to go before its text and calls. Reasoning of
 * another provider (or text alone) is left out: the API accepts only the items it produced.
 */
export function reasoningItems(message: AssistantMessage): ReasoningItem[] {
  const items: ReasoningItem[] = [];
  for (const part of message.reasoning ?? [])
    if (part.provider === OPENAI_RESPONSES && part.data?.type === "reasoning") items.push(part.data as unknown as ReasoningItem);
  return items;
}

/** A `reasoning` item (an output item of a response, or a stored input item) as a reasoning piece: its summaries' text, and the item. */
export function reasoningOfItem(item: Record<string, unknown>): ReasoningPart {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const text = summary.flatMap((s: unknown) => (isRecord(s) && typeof s.text === "string" ? [s.text] : [])).join(SUMMARY_BREAK);
  return { text, provider: OPENAI_RESPONSES, data: item };
}

/** Between two summaries of one reasoning item, in its text as in its stream. */
export const SUMMARY_BREAK = "\n\n";
