import { argumentsText, messageList } from "../messages.js";
import { responsesParts, type ResponsesContentPart } from "../parts.js";
import type { Message } from "../../index.js";
import { OPENAI_RESPONSES, reasoningItems, type ReasoningItem } from "./reasoning-items.js";
import { assistantText, type AssistantTextItem } from "./assistant-text.js";
import { interleaved } from "../provider-items.js";
import type { ResponsesHostedItem } from "./hosted-items.js";

/** A Responses API input item, as {@link toResponsesInput} writes them. */
export type ResponsesInputItem =
  | { role: "system" | "assistant"; content: string }
  | { role: "user"; content: string | ResponsesContentPart[] }
  | AssistantTextItem
  | { type: "function_call"; call_id: string; name: string; arguments: string; id?: string }
  | { type: "function_call_output"; call_id: string; output: string | ResponsesContentPart[] }
  | ReasoningItem
  | ResponsesHostedItem;

/**
 * Responses API: a toolrx conversation as the request's `input`, for stateless use (no
 * `previous_response_id`). An assistant turn becomes its text (when it has any) followed by a
 * `function_call` item per call, each tool message a `function_call_output`; the items OpenAI
 * ran itself (`providerItems`: web search, tool search…) go back as they came, where they were
 * in the text; the loop's
 * ask-user question is ordinary assistant text and approval messages are left out. Content
 * parts become `input_image` and `input_file` parts, in user messages and tool outputs alike.
 * An assistant turn's reasoning of provider `"openai-responses"` goes first, as the `reasoning`
 * items the API sent (their `id` and `encrypted_content` unchanged); reasoning of another
 * provider, or text alone, is dropped, since the API takes back only its own items. Text and
 * calls the API gave an item id (`textState`, a call's `providerState`) go back under it: a
 * `message` item with its `id`, a `function_call` with its `id`.
 *
 * @example
 * openai.toResponsesInput([{ role: "user", content: "Weather in Paris?" }, assistant, toolMessage]);
 * // [{ role: "user", content: "Weather in Paris?" },
 * //  { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
 * //  { type: "function_call_output", call_id: "call_1", output: '{"tempC":21}' }]
 */
export function toResponsesInput(messages: readonly Message[]): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const message of messageList(messages, "openai.toResponsesInput")) {
    switch (message.role) {
      case "system":
        items.push({ role: "system", content: message.content });
        break;
      case "user":
        items.push({ role: "user", content: message.parts?.length ? responsesParts(message.content, message.parts) : message.content });
        break;
      case "assistant": {
        items.push(...reasoningItems(message));
        const text = assistantText(message);
        if (message.providerItems?.length)
          items.push(
            ...interleaved<ResponsesInputItem>(
              message,
              "openai-responses",
              messages,
              "openai.toResponsesInput",
              text,
              (item) => ({ ...item }) as ResponsesHostedItem,
            ),
          );
        else if (message.content !== "" || !message.toolCalls?.length) {
          const written = text(message.content);
          items.push(...(written.length > 0 ? written : [{ role: "assistant" as const, content: message.content }]));
        }
        for (const call of message.toolCalls ?? []) {
          const id = call.providerState?.provider === OPENAI_RESPONSES ? call.providerState.data.id : undefined;
          items.push({ type: "function_call", call_id: call.id, name: call.name, arguments: argumentsText(call), ...(typeof id === "string" ? { id } : {}) });
        }
        break;
      }
      case "tool":
        items.push({
          type: "function_call_output",
          call_id: message.toolCallId,
          output: message.parts?.length ? responsesParts(message.content, message.parts) : message.content,
        });
        break;
    }
  }
  return items;
}
