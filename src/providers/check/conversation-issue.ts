/**
 * Which wire rule a conversation breaks. A closed set, so a caller can branch on it:
 * - `invalid_type`: a message, block or field is not of the shape the provider takes;
 * - `invalid_role`: a role the provider does not have in that place (Anthropic has no `system` message);
 * - `empty_content`: text the provider refuses because it is empty (Anthropic);
 * - `roles_not_alternating`: two messages of one role in a row (Anthropic);
 * - `misplaced_block`: a `tool_use` or thinking block outside an assistant message, a `tool_result` outside a user
 *   message or after its text (Anthropic);
 * - `duplicate_tool_call`: two tool calls with one id;
 * - `missing_tool_result`: a tool call not answered where the provider wants its answer;
 * - `orphan_tool_result`: an answer that matches no call the provider would pair it with;
 * - `duplicate_tool_result`: a second answer to one call.
 */
export type ConversationIssueCode =
  | "invalid_type"
  | "invalid_role"
  | "empty_content"
  | "roles_not_alternating"
  | "misplaced_block"
  | "duplicate_tool_call"
  | "missing_tool_result"
  | "orphan_tool_result"
  | "duplicate_tool_result";

/**
 * One broken rule, in zod's issue shape: `path` points into the messages you passed
 * (`[3, "tool_calls", 0]` is the first tool call of message 3), `message` says what the provider
 * would refuse and why.
 */
export interface ConversationIssue {
  readonly code: ConversationIssueCode;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The providers whose wire rules {@link checkConversation} knows. */
export type ConversationProvider = "openai-chat" | "openai-responses" | "anthropic";

/** Options of {@link checkConversation}. */
export interface CheckConversationOptions {
  /**
   * Let the calls of the conversation's last assistant turn wait for answers (some, or all):
   * a halt hands them to the host (manual calls, approvals), so the conversation is whole but
   * not yet sendable. Only the last turn's calls may wait, and only when nothing but their
   * answers follows them. Default `false`: every call must be answered.
   */
  readonly pendingCalls?: boolean;
}

/** Collects the issues of one check, in the order the messages show them. */
export class IssueList {
  readonly issues: ConversationIssue[] = [];

  add(code: ConversationIssueCode, path: readonly (string | number)[], message: string): void {
    this.issues.push({ code, path, message });
  }
}
