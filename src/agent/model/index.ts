// The public file of model/ (what a model is to the loop): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { assistantMessage, replyState, type ReplyState } from "./assistant-message.js";
export { ModelEventError } from "./model-event-error.js";
export type { FinishReason, Model, ModelEvent, ModelRequest } from "./model.js";
export { addUsage, isTokenUsage, type TokenUsage, type UsageSource } from "./usage.js";
