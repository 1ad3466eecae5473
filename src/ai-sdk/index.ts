/**
 * toolrx/ai-sdk: toolrx behind the AI SDK's front end, and the AI SDK's providers behind toolrx.
 * `toUIMessageChunks` and `uiMessageStreamResponse` stream a run to `useChat` (the UI message
 * stream protocol), `fromUIMessages` reads back what `useChat` posts, and `aiSdkModel` runs the
 * loop on any AI SDK language model. `ai` and `@ai-sdk/provider` are optional peers, for types
 * alone: nothing here imports them at run time.
 */
export { toUIMessageChunks, type UIMessageChunksOptions } from "./ui-message-chunks.js";
export { uiMessageStreamResponse, UI_MESSAGE_STREAM_HEADERS } from "./ui-message-stream-response.js";
export { fromUIMessages } from "./from-ui-messages.js";
export type { ToolrxDataTypes } from "./ui-data-types.js";
export { aiSdkModel, type AiSdkLanguageModel, type AiSdkModelOptions } from "./ai-sdk-model.js";
