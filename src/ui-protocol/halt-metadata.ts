import type { PendingApproval, PendingQuestion, ToolCall } from "../index.js";

/**
 * The fields of an `agent_halted` event's `metadata` a UI protocol reads: what the client must
 * answer (approvals, questions, its own manual calls), the error of a failed run, and the model's
 * finish reason of a completed one. A type alone: the metadata is the loop's, read as it is.
 */
export interface HaltMetadata {
  readonly pendingApprovals?: readonly PendingApproval[];
  readonly pendingQuestions?: readonly PendingQuestion[];
  readonly manualToolCalls?: readonly ToolCall[];
  readonly error?: unknown;
  readonly finishReason?: string;
}
