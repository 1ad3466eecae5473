import type { RecordedReply } from "./run-journal.js";
import type { ModelEvent } from "./types.js";

/** A recorded reply as the model's events, so it takes the same path through the turn as a live one. */
export function replayOf(recorded: RecordedReply): ModelEvent[] {
  const { message, finishReason } = recorded;
  const events: ModelEvent[] = [];
  for (const part of message.reasoning ?? []) events.push({ type: "reasoning", part });
  // Text cut where each provider item stood, so the replayed message is the recorded one.
  let from = 0;
  for (const { provider, item, textOffset } of message.providerItems ?? []) {
    if (textOffset > from) events.push({ type: "text_delta", text: message.content.slice(from, textOffset) });
    events.push({ type: "provider_item", provider, item });
    from = textOffset;
  }
  if (message.content.length > from) events.push({ type: "text_delta", text: message.content.slice(from) });
  for (const call of message.toolCalls ?? []) events.push({ type: "tool_call", call });
  events.push({ type: "finish", reason: finishReason });
  return events;
}
