import type { ApprovalMessage } from "../message.js";
import { describe } from "../tool-error.js";
import { isPlainRecord } from "../../util/safe.js";

export type { ApprovalMessage } from "../message.js";

/**
 * The batch runner's `approvals` option checked, by call id (the last decision on a call wins).
 *
 * @throws {TypeError} naming the decision and the field that is wrong.
 */
export function checkApprovals(approvals: unknown): ReadonlyMap<string, ApprovalMessage> | undefined {
  if (approvals === undefined) return undefined;
  if (!Array.isArray(approvals)) throw new TypeError(`Expected \`approvals\` to be an array of decisions, got ${describe(approvals)}`);
  const byId = new Map<string, ApprovalMessage>();
  approvals.forEach((d: unknown, i) => {
    const at = `approvals[${i}]`;
    if (!isPlainRecord(d)) throw new TypeError(`Expected \`${at}\` to be a decision object, got ${describe(d)}`);
    if (d.role !== undefined && d.role !== "approval") throw new TypeError(`Expected \`${at}.role\` to be "approval" or absent, got ${describe(d.role)}`);
    if (typeof d.toolCallId !== "string" || d.toolCallId === "")
      throw new TypeError(`Expected \`${at}.toolCallId\` to be a non-empty string, got ${describe(d.toolCallId)}`);
    if (typeof d.approved !== "boolean") throw new TypeError(`Expected \`${at}.approved\` to be a boolean, got ${describe(d.approved)}`);
    for (const key of ["reason", "token"] as const) {
      if (d[key] !== undefined && typeof d[key] !== "string") throw new TypeError(`Expected \`${at}.${key}\` to be a string, got ${describe(d[key])}`);
    }
    if (d.arguments !== undefined && !isPlainRecord(d.arguments))
      throw new TypeError(`Expected \`${at}.arguments\` to be an object, got ${describe(d.arguments)}`);
    byId.set(d.toolCallId, { ...(d as object), role: "approval" } as ApprovalMessage);
  });
  return byId;
}
