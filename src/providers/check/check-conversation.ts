import { kindOf } from "../shape.js";
import { checkAnthropic } from "./check-anthropic.js";
import { checkChat } from "./check-chat.js";
import { checkResponses } from "./check-responses.js";
import { IssueList, type CheckConversationOptions, type ConversationIssue, type ConversationProvider } from "./conversation-issue.js";

const CHECKS: Readonly<Record<ConversationProvider, typeof checkChat>> = {
  "openai-chat": checkChat,
  "openai-responses": checkResponses,
  anthropic: checkAnthropic,
};

/**
 * Check a conversation, in the provider's own request format, against the rules the provider
 * documents for tool calls and messages, before it is sent: what would come back as a 400 (or,
 * worse, be accepted and confuse the model) comes back here as issues in zod's shape, with a
 * path into `messages`. An empty array means the provider's rules hold.
 *
 * Pass what you send: `openai.toChatMessages(conversation)` or the Chat `messages` you keep,
 * `openai.toResponsesInput(conversation)` or your Responses `input`, Anthropic's `messages`
 * (the `messages` of `anthropic.toMessages(conversation)`, without `system`).
 *
 * - `"openai-chat"`: every tool message right after the assistant message that called, one
 *   per call, none left out, none for a call that message did not make.
 * - `"openai-responses"`: one `function_call_output` per `function_call`, after it; no two
 *   calls with one `call_id`; an item OpenAI ran (`web_search_call`…) has its `id`, and no two
 *   tool items share an `id`.
 * - `"anthropic"`: `user` and `assistant` alternate; no empty content (the final assistant
 *   message aside); each `tool_use` answered by a `tool_result` in the very next message,
 *   `tool_result` blocks first; each `server_tool_use` answered by its result block in the same
 *   assistant message (the final message aside).
 *
 * @param messages The conversation as the provider takes it.
 * @param provider Whose rules: `"openai-chat"`, `"openai-responses"` or `"anthropic"`.
 * @param options `pendingCalls: true` lets the last turn's calls wait (a halted run's conversation).
 * @returns The broken rules, in message order; `[]` when there are none.
 * @throws {TypeError} when `messages` is not an array or `provider` is not one of the three.
 *
 * @example
 * checkConversation(openai.toChatMessages([
 *   { role: "user", content: "Weather in Paris?" },
 *   { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" } }] },
 *   { role: "user", content: "Hello?" },
 * ]), "openai-chat");
 * // [{ code: "missing_tool_result", path: [1, "tool_calls", 0],
 * //    message: 'Tool call "call_1" (weather) of message 1 has no tool message before message 2: ...' }]
 */
export function checkConversation(messages: readonly unknown[], provider: ConversationProvider, options: CheckConversationOptions = {}): ConversationIssue[] {
  if (!Array.isArray(messages)) throw new TypeError(`Expected \`messages\` of \`checkConversation\` to be an array, got ${kindOf(messages)}`);
  const check = Object.hasOwn(CHECKS, provider) ? CHECKS[provider] : undefined;
  if (check === undefined) {
    throw new TypeError(
      `Expected \`provider\` of \`checkConversation\` to be "openai-chat", "openai-responses" or "anthropic", got ${typeof provider === "string" ? JSON.stringify(provider) : kindOf(provider)}`,
    );
  }
  if (options === null || typeof options !== "object")
    throw new TypeError(`Expected \`options\` of \`checkConversation\` to be an object, got ${kindOf(options)}`);
  if (options.pendingCalls !== undefined && typeof options.pendingCalls !== "boolean") {
    throw new TypeError(`Expected \`pendingCalls\` of \`checkConversation\` to be a boolean, got ${kindOf(options.pendingCalls)}`);
  }
  const issues = new IssueList();
  check(messages, options, issues);
  return issues.issues;
}
