import type { ApprovalMessage } from "./message.js";
import type { PendingApproval } from "./approval/needs-approval.js";

/**
 * The decision that approves a pending approval: its id, token and arguments given back as
 * they came, or with `arguments` edited (checked against the schema, and put up for approval
 * again when `needsApproval` still asks about them).
 *
 * @example
 * const decisions = r.metadata.pendingApprovals.map((p) => approve(p));
 * await runAgent({ ...options, messages: [...r.messages, ...decisions] });
 */
export function approve(pending: PendingApproval, edit?: { readonly arguments?: Record<string, unknown> }): ApprovalMessage {
  const decision: ApprovalMessage = { role: "approval", toolCallId: pending.toolCallId, approved: true, arguments: edit?.arguments ?? pending.arguments };
  return pending.token === undefined ? decision : { ...decision, token: pending.token };
}

/**
 * The decision that denies a pending approval; `reason` is what the model reads.
 *
 * @example
 * deny(pending, "over the monthly limit");
 * // { role: "approval", toolCallId: "c1", approved: false, reason: "over the monthly limit" }
 */
export function deny(pending: PendingApproval, reason?: string): ApprovalMessage {
  const decision: ApprovalMessage = { role: "approval", toolCallId: pending.toolCallId, approved: false };
  return reason === undefined ? decision : { ...decision, reason };
}
