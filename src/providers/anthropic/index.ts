/**
 * Anthropic: the Messages API. Import the namespace (`import { anthropic } from
 * "toolrx/providers"`) or, for the smallest bundle, single functions from
 * `toolrx/providers/anthropic`.
 */
export { messagesModel, type MessagesClient, type MessagesModelOptions, type MessagesStreamRequest, type MessageStreamEventLike } from "./messages-model.js";
export { toMessages, toToolResultMessage, type AssistantBlock, type HostedBlock, type MessageParam, type ToolResultBlock, type UserBlock } from "./messages.js";
export { fromMessages } from "./history.js";
export { fromMessage, parseToolCalls, type ContentBlock, type MessageLike } from "./parse-tool-calls.js";
export { toTools, type AnthropicTool, type AnthropicToolSearchTool } from "./tools.js";
export type { NativeToolSearch } from "../native-tool-search.js";
export { TruncatedStreamError } from "../truncated-stream-error.js";
