import { AWAITING_USER_RESPONSE, type ToolEvent } from "../../run/results/events.js";
import { encodedMessage, haltMetadataOf } from "../../run/results/run-result.js";
import type { PendingQuestion } from "../../tool/approval/needs-approval.js";
import type { ToolMessage } from "../../tool/message.js";
import type { JournalAnswer } from "../journal/index.js";

/**
 * The answer a runner's event gives its call, for the batch to keep (and the journal to record):
 * the encoded result, a halt's message and metadata, or an `ask_user` question; `undefined` for an
 * event that answers nothing (started, completed, reports).
 */
export function batchAnswerOf(event: ToolEvent): JournalAnswer | undefined {
  switch (event.type) {
    case "tool_result_encoded":
      return { message: encodedMessage(event) };
    case "tool_halt": {
      const message: ToolMessage = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: event.content, isError: event.isError };
      return { message, halt: haltMetadataOf(event) };
    }
    case "ask_user_requested": {
      const message: ToolMessage = { role: "tool", toolCallId: event.toolCallId, name: event.toolName, content: AWAITING_USER_RESPONSE, isError: false };
      const question: PendingQuestion = { toolCallId: event.toolCallId, question: event.question, opts: event.opts };
      return { message, halt: haltMetadataOf(event), question };
    }
    default:
      return undefined;
  }
}
