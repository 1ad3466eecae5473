import type { Halt } from "../results.js";
import type { PendingApproval } from "./needs-approval.js";

const issued = new WeakSet<object>();

/**
 * The `approval_required` halt the runner itself answers a held call with. The reason is
 * reserved (no handler may halt with it); only a halt made here passes as the runner's own.
 */
export function approvalHalt(pending: PendingApproval): Halt {
  const halt: Halt = Object.freeze({ type: "halt", reason: "approval_required", result: pending });
  issued.add(halt);
  return halt;
}

/** Whether `result` is a halt {@link approvalHalt} made. */
export function isApprovalHalt(result: unknown): boolean {
  return issued.has(result as object); // a WeakSet holds no primitive: `has` answers false for one
}
