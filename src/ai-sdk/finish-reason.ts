import type { FinishReason as UIFinishReason } from "ai";
import type { AgentHaltedEvent } from "../index.js";
import type { HaltMetadata } from "../ui-protocol/index.js";

/**
 * Why the run ended, in the AI SDK's words: the model's own reason for a completed run,
 * `tool-calls` when the page has calls to answer (questions, approvals, manual calls),
 * `error`, `interrupted` for a cancelled run, and `other` for the loop's and handlers' own halts.
 */
export function finishReasonOf(event: AgentHaltedEvent<string>): UIFinishReason {
  switch (event.haltedReason) {
    case "completed": {
      const reason = (event.metadata as HaltMetadata).finishReason;
      return reason === "length" ? "length" : reason === "content_filter" ? "content-filter" : "stop";
    }
    case "ask_user":
    case "approval_required":
    case "manual_tool_calls":
      return "tool-calls";
    case "error":
      return "error";
    case "cancelled":
      return "interrupted";
    default:
      return "other";
  }
}
