import type { Message } from "../../src/index.js";
import { anthropic, checkConversation, openai, type ConversationIssue } from "../../src/providers/index.js";

/** Every conversation, as each provider would get it: its converter's output, checked against that provider's wire rules. */
export function issuesOf(messages: readonly Message[]): Record<string, ConversationIssue[]> {
  return {
    "openai-chat": checkConversation(openai.toChatMessages(messages), "openai-chat"),
    "openai-responses": checkConversation(openai.toResponsesInput(messages), "openai-responses"),
    anthropic: checkConversation(anthropic.toMessages(messages).messages, "anthropic"),
  };
}

/** What {@link issuesOf} gives for a conversation every provider takes. */
export const NONE = { "openai-chat": [], "openai-responses": [], anthropic: [] };
