import type { AgentOptions } from "./agent-options.js";

/**
 * The key of the conversation a run of the loop belongs to: what its approval tokens and ledger
 * keys are bound to, so an approval given in one conversation counts in no other. Resolved here
 * and nowhere else, so every part of the loop agrees on it: the journal's `conversationKey` when
 * the run keeps one (a restarted run is the same conversation), else the run's `sessionId`;
 * `undefined` when there is neither (a conversation of no name: see docs/approvals.md).
 */
export function conversationKeyOf(options: AgentOptions): string | undefined {
  const key = (options.journal as { conversationKey?: unknown } | undefined)?.conversationKey;
  return typeof key === "string" ? key : options.sessionId;
}
