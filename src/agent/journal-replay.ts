import type { RecordedReply } from "./run-journal.js";
import type { ModelEvent } from "./types.js";

/** A recorded reply as the model's events, so it takes the same path through the turn as a live one. */
export function replayOf(recorded: RecordedReply): ModelEvent[] {
  const { message, finishReason } = recorded;
  const events: ModelEvent[] = [];
  for (const part of message.reasoning ?? []) events.push({ type: "reasoning", part });
  if (message.content !== "") events.push({ type: "text_delta", text: message.content });
  for (const call of message.toolCalls ?? []) events.push({ type: "tool_call", call });
  events.push({ type: "finish", reason: finishReason });
  return events;
}
