/**
 * Anthropic: the Messages API. Import the namespace (`import { anthropic } from
 * "toolrx/providers"`) or, for the smallest bundle, single functions from
 * `toolrx/providers/anthropic`.
 */
export { messagesModel, type MessagesClient, type MessagesModelOptions, type MessagesStreamRequest } from "./messages-model.js";
export type { MessageStreamEventLike } from "./message-event-reader.js";
export { toMessages, toToolResultMessage, type AssistantBlock, type HostedBlock, type MessageParam, type ToolResultBlock, type UserBlock } from "./messages.js";
export { fromMessages } from "./history.js";
export { fromMessage, parseToolCalls, type ContentBlock, type MessageLike } from "./parse-tool-calls.js";
export { toTools, type AnthropicTool, type AnthropicToolSearchTool } from "./tools.js";
import type { NativeToolSearch as SharedNativeToolSearch } from "../native-tool-search.js";
/**
 * The provider's own tool search (`toolSearch` of the model function): every tool but
 * `alwaysLoaded` goes with `defer_loading: true`, next to the provider's search tool. Declared
 * here rather than re-exported, so the namespace's declarations keep it a type.
 */
export type NativeToolSearch = SharedNativeToolSearch;
export { TruncatedStreamError } from "../truncated-stream-error.js";
