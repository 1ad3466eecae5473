import { canonicalJson } from "../../util/canonical-json.js";
import type { ApprovalLedger } from "./approval-ledger.js";
import { ApprovalMismatchError } from "./approval-mismatch-error.js";
import { approvalNeeded } from "./approval-rule.js";
import { subjectOf, type ApprovalBinding } from "./approval-binding.js";
import { approvalKey, checkApprovalToken, type ApprovalTokenFault } from "./approval-token.js";
import { checkArguments } from "../check-arguments.js";
import type { ApprovalMessage } from "../message.js";
import type { ApprovalContext } from "./needs-approval.js";
import type { Tool } from "../tool.js";
import type { ToolCall } from "../tool-call.js";

/** What a host's decision on a pending call comes to. */
export type Verdict =
  | { readonly kind: "deny"; readonly reason: string | undefined }
  /** Run `call` (the arguments approved, edited or not). */
  | { readonly kind: "run"; readonly call: ToolCall }
  /** Edited arguments that `needsApproval` still asks about: put `call` up for approval again. */
  | { readonly kind: "ask"; readonly call: ToolCall };

/** What {@link judgeDecision} checks a decision against. */
export interface JudgeOptions {
  /** The run's secrets, token lifetime, conversation and clock. */
  readonly binding: ApprovalBinding;
  readonly validate: boolean;
  /** Edited arguments earlier decisions on this call put up for approval again, oldest first. */
  readonly reissued: readonly Record<string, unknown>[];
  /** Where the decision is (its index in the conversation), for the error's metadata. */
  readonly at?: number;
  readonly approvalContext: ApprovalContext;
}

/**
 * Check one host decision on `call` and say what it comes to. A denial needs nothing (refusing
 * is always safe). An approval must carry a token made for the call as it was put up for
 * approval (with a secret) in this conversation, not expired, and edited arguments must pass the
 * schema; `needsApproval` is asked about them again.
 *
 * @throws {ApprovalMismatchError} `token_missing`, `token_invalid`, `conversation_mismatch`,
 * `token_expired` or `arguments_invalid`; whatever the rule throws.
 */
export async function judgeDecision(decision: ApprovalMessage, call: ToolCall, tool: Tool | undefined, options: JudgeOptions): Promise<Verdict> {
  if (!decision.approved) return { kind: "deny", reason: decision.reason };
  const where = options.at === undefined ? {} : { index: options.at };
  const candidates = [call.arguments, ...options.reissued];
  let issued: Record<string, unknown> | undefined;
  const { binding } = options;
  if (binding.secret !== undefined) {
    if (decision.token === undefined) throw new ApprovalMismatchError("token_missing", call.id, where);
    const now = binding.now();
    // A genuine token says more than a forged one: its own fault wins over `token_invalid`.
    let fault: ApprovalTokenFault = "token_invalid";
    for (const args of candidates) {
      const found = await checkApprovalToken(binding.secret, subjectOf({ ...call, arguments: args }, binding), decision.token, now);
      if (found === undefined) {
        issued = args;
        break;
      }
      if (found !== "token_invalid") fault = found;
    }
    if (issued === undefined) throw new ApprovalMismatchError(fault, call.id, where);
  } else {
    const wanted = decision.arguments === undefined ? undefined : canonicalJson(decision.arguments);
    issued = candidates.find((args) => canonicalJson(args) === wanted) ?? call.arguments;
  }
  const wanted = decision.arguments ?? issued;
  if (canonicalJson(wanted) === canonicalJson(issued)) return { kind: "run", call: withArguments(call, issued) };
  const edited = withArguments(call, wanted);
  if (tool !== undefined && options.validate) {
    const checked = await checkArguments(tool, edited);
    if (!checked.ok) throw new ApprovalMismatchError("arguments_invalid", call.id, { ...where, issues: checked.error.issues }, checked.error);
  }
  const needed = await approvalNeeded(tool, edited, { ...options.approvalContext, toolCall: edited }, options.validate);
  return needed ? { kind: "ask", call: edited } : { kind: "run", call: edited };
}

/**
 * Spend the approval of `call` in `ledger`, right before it runs: a second request carrying the
 * same approval in the same conversation finds it spent.
 *
 * @throws {ApprovalMismatchError} `already_used`.
 */
export async function spendApproval(ledger: ApprovalLedger, call: ToolCall, binding: ApprovalBinding, at?: number): Promise<void> {
  const key = await approvalKey(subjectOf(call, binding));
  if (!(await ledger.consume(key))) throw new ApprovalMismatchError("already_used", call.id, at === undefined ? {} : { index: at });
}

function withArguments(call: ToolCall, args: Record<string, unknown>): ToolCall {
  if (args === call.arguments) return call;
  // The provider's text described the model's arguments, not these.
  const { rawArguments: _, ...rest } = call;
  return { ...rest, arguments: args };
}
