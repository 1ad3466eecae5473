import type { JSONValue, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { AssistantMessage, Message } from "../index.js";
import { withMarkers } from "../internal.js";

/** Whose reasoning {@link toPrompt} sends back (the same as `aiSdkModel`'s; here so the two files do not import each other). */
const AI_SDK = "ai-sdk";

type PromptMessage = LanguageModelV3Prompt[number];
type ToolContent = Extract<PromptMessage, { role: "tool" }>["content"];
type TextPart = Extract<Extract<PromptMessage, { role: "assistant" }>["content"][number], { type: "text" }>;
type ProviderOptions = Record<string, Record<string, JSONValue>>;

/**
 * A toolrx conversation as an AI SDK provider's prompt (the same shape in the v3 and v4
 * specifications): the answers of one turn in one `tool` message, a failed call's content as
 * `error-text`, approval messages left out (host bookkeeping), a message's images and files
 * as the text markers the core writes for them, and the reasoning an AI SDK model gave (provider
 * `"ai-sdk"`) as reasoning parts with their provider metadata as `providerOptions`; reasoning of
 * another provider, or text alone, is dropped: its state is not the AI SDK's to verify. The
 * state an AI SDK model gave on its text blocks and calls goes back the same way, each block
 * its own text part; another provider's is left off.
 */
export function toPrompt(messages: readonly Message[]): LanguageModelV3Prompt {
  const prompt: PromptMessage[] = [];
  let results: ToolContent | undefined;
  for (const m of messages) {
    if (m.role !== "tool") results = undefined;
    switch (m.role) {
      case "system":
        prompt.push({ role: "system", content: withMarkers(m.content, m.parts) });
        break;
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: withMarkers(m.content, m.parts) }] });
        break;
      case "assistant": {
        const content: Extract<PromptMessage, { role: "assistant" }>["content"] = [];
        for (const r of m.reasoning ?? [])
          if (r.provider === AI_SDK)
            content.push(r.data === undefined ? { type: "reasoning", text: r.text } : { type: "reasoning", text: r.text, providerOptions: options(r.data) });
        content.push(...textParts(m));
        for (const call of m.toolCalls ?? []) {
          const state = call.providerState;
          content.push(
            state?.provider === AI_SDK
              ? { type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.arguments, providerOptions: options(state.data) }
              : { type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.arguments },
          );
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const text = withMarkers(m.content, m.parts);
        const part = {
          type: "tool-result" as const,
          toolCallId: m.toolCallId,
          toolName: m.name,
          output: m.isError ? { type: "error-text" as const, value: text } : { type: "text" as const, value: text },
        };
        if (results === undefined) {
          results = [part];
          prompt.push({ role: "tool", content: results });
        } else results.push(part);
        break;
      }
      case "approval":
        break;
    }
  }
  return prompt;
}

/**
 * An assistant message's text as text parts: one per block that has an AI SDK model's state (with
 * it as `providerOptions`), and the rest as it stands. A block of empty text is kept when it has
 * state (Gemini may sign an empty part).
 */
function textParts(m: AssistantMessage): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  for (const state of m.textState ?? []) {
    if (state.provider !== AI_SDK) continue;
    const before = m.content.slice(from, state.textEnd);
    parts.push({ type: "text", text: before, providerOptions: options(state.data) });
    from = Math.max(from, state.textEnd);
  }
  const rest = m.content.slice(from);
  if (rest !== "") parts.push({ type: "text", text: rest });
  return parts;
}

/** Provider metadata as the call's `providerOptions`: the same JSON, by provider. */
function options(data: Readonly<Record<string, unknown>>): ProviderOptions {
  return data as ProviderOptions;
}
