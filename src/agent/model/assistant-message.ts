import type { AssistantMessage, ProviderItem, ReasoningPart, TextState } from "../../tool/message.js";
import type { ToolCall } from "../../tool/tool-call.js";

/** What of a model's reply besides its text and calls had come when a call started: kept with the call. */
export type ReplyState = Pick<AssistantMessage, "reasoning" | "textState" | "providerItems">;

/** The assistant message of a reply: `toolCalls`, `reasoning`, `providerItems` and `textState` only when there are some. */
export function assistantMessage(
  content: string,
  calls: readonly ToolCall[],
  reasoning: readonly ReasoningPart[] | undefined,
  providerItems: readonly ProviderItem[] | undefined,
  textState?: readonly TextState[],
): AssistantMessage {
  const message: { -readonly [K in keyof AssistantMessage]: AssistantMessage[K] } = { role: "assistant", content };
  if (calls.length > 0) message.toolCalls = calls;
  if (reasoning !== undefined) message.reasoning = reasoning;
  if (providerItems !== undefined) message.providerItems = providerItems;
  if (textState !== undefined) message.textState = textState;
  return message;
}

/** A reply's state besides its text and calls, with only what it has; undefined when it has none. */
export function replyState(
  reasoning: readonly ReasoningPart[] | undefined,
  textState: readonly TextState[] | undefined,
  providerItems: readonly ProviderItem[] | undefined,
): ReplyState | undefined {
  if (reasoning === undefined && textState === undefined && providerItems === undefined) return undefined;
  return { ...(reasoning && { reasoning }), ...(textState && { textState }), ...(providerItems && { providerItems }) };
}
