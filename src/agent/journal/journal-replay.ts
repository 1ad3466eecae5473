import type { RecordedReply } from "./run-journal.js";
import type { ModelEvent } from "../model/index.js";

/** A recorded reply as the model's events, so it takes the same path through the turn as a live one. */
export function replayOf(recorded: RecordedReply): ModelEvent[] {
  const { message, finishReason } = recorded;
  const events: ModelEvent[] = [];
  for (const part of message.reasoning ?? []) events.push({ type: "reasoning", part });
  // Text cut where each provider item stood and each text block ended, so the replayed message is the recorded one.
  const marks: { at: number; event: ModelEvent }[] = [];
  for (const { provider, item, textOffset } of message.providerItems ?? []) marks.push({ at: textOffset, event: { type: "provider_item", provider, item } });
  for (const { provider, data, textEnd } of message.textState ?? []) marks.push({ at: textEnd, event: { type: "text_state", provider, data } });
  // Stable: at one offset, items and states keep their own order.
  marks.sort((a, b) => a.at - b.at);
  let from = 0;
  for (const { at, event } of marks) {
    if (at > from) events.push({ type: "text_delta", text: message.content.slice(from, at) });
    events.push(event);
    from = Math.max(from, at);
  }
  if (message.content.length > from) events.push({ type: "text_delta", text: message.content.slice(from) });
  for (const call of message.toolCalls ?? []) events.push({ type: "tool_call", call });
  events.push({ type: "finish", reason: finishReason });
  return events;
}
