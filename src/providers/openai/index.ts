/**
 * OpenAI: Chat Completions and the Responses API. Import the namespace (`import { openai } from
 * "toolrx/providers"`) or, for the smallest bundle, single functions from
 * `toolrx/providers/openai`.
 */
export type { ChatCompletionChunkLike } from "./chat-chunk-reader.js";
export { chatModel, type ChatCompletionsClient, type ChatModelOptions, type ChatStreamRequest } from "./chat-model.js";
export { fromChatMessages } from "./chat-history.js";
export { fromChatMessage, toChatMessages, toToolMessages, type ChatMessageParam, type ChatToolMessage } from "./chat-messages.js";
export { parseToolCalls, type ChatAssistantMessage, type ChatCompletionLike, type ChatToolCall } from "./chat-tool-calls.js";
export { fromResponsesInput } from "./responses-history.js";
export { toResponsesInput, type ResponsesInputItem } from "./responses-input.js";
export type { ResponsesHostedItem } from "./hosted-items.js";
export {
  responsesModel,
  type ResponsesClient,
  type ResponsesModelOptions,
  type ResponsesStreamRequest,
  type ResponseStreamEventLike,
} from "./responses-model.js";
export { fromResponseOutput, parseResponseOutput, toFunctionCallOutputs, type ResponseLike, type ResponseOutputItem } from "./responses-output.js";
export { toResponsesTools, toTools, type ChatFunctionTool, type ResponsesFunctionTool, type ResponsesToolSearchTool } from "./tools.js";
import type { NativeToolSearch as SharedNativeToolSearch } from "../native-tool-search.js";
/**
 * The provider's own tool search (`toolSearch` of the model function): every tool but
 * `alwaysLoaded` goes with `defer_loading: true`, next to the provider's search tool. Declared
 * here rather than re-exported, so the namespace's declarations keep it a type.
 */
export type NativeToolSearch = SharedNativeToolSearch;
export { TruncatedStreamError } from "../truncated-stream-error.js";
