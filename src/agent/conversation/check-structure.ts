import { AWAITING_USER_RESPONSE } from "../../run/results/events.js";
import type { AssistantMessage, Message } from "../../tool/message.js";

/**
 * Reject a conversation whose structure no provider takes, naming the message: a tool message
 * that answers no call of the assistant turn before it, a second answer to one call, an
 * `ask_user` call answered with a tool message instead of the user's words, two calls with one
 * id in a turn, or a new assistant turn while calls of the one before are unanswered. Runs after
 * the shape check, so every message here is well formed.
 *
 * @throws {TypeError} like ``Expected `messages[4]` to answer a call of the assistant turn at `messages[1]`, got tool call "c9"``.
 */
export function assertStructure(messages: readonly Message[]): void {
  let turnAt = -1;
  let calls = new Set<string>();
  /** Where each call of the current turn was answered. */
  let answers = new Map<string, number>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === "assistant" && m.metadata?.askUser !== true) {
      if (turnAt >= 0) {
        for (const id of calls) {
          if (!answers.has(id)) {
            throw new TypeError(
              `Expected tool call ${JSON.stringify(id)} of \`messages[${turnAt}]\` to be answered before the next assistant turn at \`messages[${i}]\``,
            );
          }
        }
      }
      const ids = (m as AssistantMessage).toolCalls?.map((call) => call.id) ?? [];
      calls = new Set(ids);
      if (calls.size !== ids.length) {
        const twice = ids.find((id, k) => ids.indexOf(id) !== k);
        throw new TypeError(`Expected the tool call ids of \`messages[${i}]\` to be distinct, got ${JSON.stringify(twice)} twice`);
      }
      turnAt = ids.length > 0 ? i : -1;
      answers = new Map();
      continue;
    }
    if (m.role !== "tool") continue;
    if (!calls.has(m.toolCallId)) {
      const where = turnAt < 0 ? "an assistant turn with tool calls before it" : `the assistant turn at \`messages[${turnAt}]\``;
      throw new TypeError(`Expected \`messages[${i}]\` to answer a call of ${where}, got tool call ${JSON.stringify(m.toolCallId)}`);
    }
    const first = answers.get(m.toolCallId);
    if (first !== undefined) {
      const asked = (messages[first] as { content: string }).content === AWAITING_USER_RESPONSE;
      throw new TypeError(
        asked
          ? `Expected \`messages[${i}]\` not to answer tool call ${JSON.stringify(m.toolCallId)}: it asked the user (\`messages[${first}]\`); answer it with a user message`
          : `Expected one answer to tool call ${JSON.stringify(m.toolCallId)}, got a second at \`messages[${i}]\` (the first is \`messages[${first}]\`)`,
      );
    }
    answers.set(m.toolCallId, i);
  }
}
