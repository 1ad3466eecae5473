/**
 * Why a decision was refused. The set is closed: a host can switch on it.
 * - `token_missing`: an `approvalSecret` is set and the decision carries no `token`.
 * - `token_invalid`: the token was not made for this call as it stands (forged, made with a secret
 *   no longer accepted, not in its one canonical spelling, or the call's id, tool name or
 *   arguments were edited since it was put up for approval).
 * - `conversation_mismatch`: the token was issued for this call in another conversation (another
 *   conversation key, or a key where this run has none, or none where it has one).
 * - `token_expired`: the token's lifetime (`approvalTokenTtl`) has run out.
 * - `not_pending`: the decision names no call awaiting one (an unknown id, a call of an earlier
 *   turn, a manual call, a call answered after the decision, a decision placed before its call).
 * - `already_used`: the approval was spent already (a replayed request; needs `approvalLedger`).
 * - `arguments_invalid`: approved with edited arguments the tool's schema refuses.
 */
export const APPROVAL_MISMATCH_REASONS = /* @__PURE__ */ Object.freeze([
  "token_missing",
  "token_invalid",
  "conversation_mismatch",
  "token_expired",
  "not_pending",
  "already_used",
  "arguments_invalid",
] as const);

/** One of {@link APPROVAL_MISMATCH_REASONS}. */
export type ApprovalMismatchReason = (typeof APPROVAL_MISMATCH_REASONS)[number];

const TEXT: Record<ApprovalMismatchReason, string> = {
  token_missing: "carries no token, and approvals need one",
  token_invalid: "carries a token that was not issued for this call as it stands",
  conversation_mismatch: "carries a token issued in another conversation",
  token_expired: "carries a token that has expired",
  not_pending: "names no call awaiting a decision",
  already_used: "was used already",
  arguments_invalid: "edits the arguments into ones the tool's schema refuses",
};

/**
 * A host's decision the loop (or the batch runner) refused: nothing of that request ran. The
 * run ends with `error` and this as `metadata.error`.
 *
 * @example
 * new ApprovalMismatchError("token_invalid", "c1").message;
 * // 'the decision on tool call "c1" carries a token that was not issued for this call as it stands'
 */
export class ApprovalMismatchError extends Error {
  override readonly name = "ApprovalMismatchError";
  readonly reason: ApprovalMismatchReason;
  /** The call the decision names. */
  readonly toolCallId: string;
  /** Details: the decision's index in the conversation, the schema's issues. */
  readonly metadata: Record<string, unknown>;

  constructor(reason: ApprovalMismatchReason, toolCallId: string, metadata: Record<string, unknown> = {}, cause?: unknown) {
    super(`the decision on tool call ${JSON.stringify(toolCallId)} ${TEXT[reason]}`, cause === undefined ? undefined : { cause });
    this.reason = reason;
    this.toolCallId = toolCallId;
    this.metadata = metadata;
  }
}
