import { describe } from "../../util/safe.js";
import type { ToolCall } from "../tool-call.js";
import { approvalToken, type ApprovalSecrets, type ApprovalSubject } from "./approval-token.js";
import type { PendingApproval } from "./needs-approval.js";

/** What the tokens and ledger keys of one run are bound to, beyond the call itself. */
export interface ApprovalBinding {
  /** `undefined`: no tokens; decisions are trusted as written. */
  readonly secret: ApprovalSecrets | undefined;
  /** Milliseconds a token is accepted for after it is issued; `Infinity` for ever. */
  readonly ttl: number;
  /** The conversation's key (the run's `sessionId`, or the loop's); `undefined` for none. */
  readonly conversationKey: string | undefined;
  /** The run's clock (its scheduler's `now`), so virtual time moves expiry too. */
  readonly now: () => number;
}

/** About 31,700 years: enough for any lifetime, and the expiry stays a safe integer on any clock. */
const MAX_TTL = 1e15;

/**
 * The `approvalTokenTtl` option checked: a positive number of milliseconds (`Infinity`: no
 * expiry, the default), only with an `approvalSecret` (without one there is no token to expire,
 * and a lifetime nobody enforces is a silent default).
 *
 * @throws {TypeError} naming `approvalTokenTtl`.
 */
export function checkApprovalTokenTtl(ttl: unknown, secret: ApprovalSecrets | undefined): number {
  if (ttl === undefined) return Infinity;
  if (!(typeof ttl === "number" && ttl > 0 && (ttl <= MAX_TTL || ttl === Infinity))) {
    throw new TypeError(`Expected \`approvalTokenTtl\` to be a positive number of milliseconds up to 1e15, or Infinity, got ${describe(ttl)}`);
  }
  if (secret === undefined) throw new TypeError("Expected `approvalSecret` with `approvalTokenTtl`: only a token can expire");
  return ttl;
}

/** The subject a token or a ledger key of `call` is made for in this run. */
export function subjectOf(call: Pick<ToolCall, "id" | "name" | "arguments">, binding: ApprovalBinding): ApprovalSubject {
  return { id: call.id, name: call.name, arguments: call.arguments, conversationKey: binding.conversationKey };
}

/** A call put up for approval, with its token when there is a secret (good for `ttl` from now). */
export async function pendingApproval(call: Pick<ToolCall, "id" | "name" | "arguments">, binding: ApprovalBinding): Promise<PendingApproval> {
  const pending: PendingApproval = { toolCallId: call.id, toolName: call.name, arguments: call.arguments };
  if (binding.secret === undefined) return pending;
  const expiresAt = binding.ttl === Infinity ? undefined : Math.ceil(binding.now() + binding.ttl);
  return { ...pending, token: await approvalToken(binding.secret, subjectOf(call, binding), { expiresAt }) };
}
