/**
 * Adapters between toolrx and model providers: model functions for the agent loop that stream
 * from the official SDKs, converters between toolrx's conversation and each provider's
 * messages, parsers for tool calls in a response, and tool descriptions in the provider's
 * request format. Types are structural, so no SDK is needed at runtime.
 *
 * @example
 * import { openai } from "toolrx/providers";
 * const calls = openai.parseToolCalls(completion);
 * const result = await runToolCalls(calls, tools);
 * messages.push(completion.choices[0].message, ...openai.toToolMessages(result));
 */
export * as openai from "./openai/index.js";
export * as anthropic from "./anthropic/index.js";
export { checkConversation } from "./check/check-conversation.js";
export type { CheckConversationOptions, ConversationIssue, ConversationIssueCode, ConversationProvider } from "./check/conversation-issue.js";
export { TruncatedStreamError } from "./truncated-stream-error.js";
