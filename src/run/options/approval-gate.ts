import { approvalHalt } from "../../tool/approval/approval-halt.js";
import { judgeDecision, spendApproval } from "../../tool/approval/approval-decision.js";
import { ApprovalMismatchError } from "../../tool/approval/approval-mismatch-error.js";
import { approvalNeeded, deniedText } from "../../tool/approval/approval-rule.js";
import { pendingApproval, type ApprovalBinding } from "../../tool/approval/approval-binding.js";
import { checkArguments } from "../../tool/check-arguments.js";
import type { ToolExecutor } from "../../tool/executor.js";
import type { HandlerContext } from "../../tool/handler-context.js";
import type { ApprovalContext } from "../../tool/approval/needs-approval.js";
import { error, type HandlerResult } from "../../tool/results.js";
import type { Tool } from "../../tool/tool.js";
import type { RunEnv } from "./options.js";

/**
 * The batch runner's approval gate, around the executor: a call whose tool `needsApproval` runs
 * only on an approving decision in `approvals`. Without one it halts with `approval_required`
 * and the pending approval (its `token` with an `approvalSecret`) as the halt's result; a denied
 * call is answered with an error text the model can read, and a decision that does not match
 * is answered with its {@link ApprovalMismatchError}; neither runs the handler. A decision is
 * judged whatever the call's tool: a denial stops a call whose tool asks for no approval, as the
 * agent loop's resume does (the user said no; running it anyway would not fail closed). Other
 * calls go straight through.
 */
export function gatedExecutor(inner: ToolExecutor, env: RunEnv): ToolExecutor {
  return {
    execute(tool, args, ctx) {
      if (tool.needsApproval === undefined && env.approvals?.has(ctx.toolCall.id) !== true) return inner.execute(tool, args, ctx);
      return gate(inner, tool, args, ctx, env);
    },
  };
}

async function gate(inner: ToolExecutor, tool: Tool, args: Record<string, unknown>, ctx: HandlerContext, env: RunEnv): Promise<HandlerResult> {
  const call = ctx.toolCall;
  const approval: ApprovalContext = {
    toolCall: call,
    messages: [],
    context: env.context,
    sessionId: env.sessionId,
    requestId: env.requestId,
    signal: ctx.signal,
  };
  const binding = bindingOf(env);
  const decision = env.approvals?.get(call.id);
  if (decision === undefined) {
    // The runner validated the arguments already: the rule gets them as the handler would.
    if (!(await approvalNeeded(tool, { ...call, arguments: args }, approval, false))) return inner.execute(tool, args, ctx);
    return approvalHalt(await pendingApproval(call, binding));
  }
  try {
    const verdict = await judgeDecision(decision, call, tool, { binding, validate: env.validate, reissued: [], approvalContext: approval });
    if (verdict.kind === "deny") return error(deniedText(call, verdict.reason));
    if (verdict.kind === "ask") return approvalHalt(await pendingApproval(verdict.call, binding));
    if (env.approvalLedger !== undefined) await spendApproval(env.approvalLedger, verdict.call, binding);
    if (verdict.call === call) return inner.execute(tool, args, ctx);
    if (!env.validate) return inner.execute(tool, verdict.call.arguments, ctx);
    // `judgeDecision` refused edited arguments the schema refuses: the handler gets the schema's output of these.
    const checked = await checkArguments(tool, verdict.call);
    return inner.execute(tool, checked.ok ? checked.value : verdict.call.arguments, ctx);
  } catch (e) {
    if (e instanceof ApprovalMismatchError) return error(e);
    throw e;
  }
}

/**
 * Run directly, the batch runner's conversation is the one its `sessionId` names: the key its
 * tokens and ledger keys bind (the agent loop settles its approvals itself, with its own key).
 */
function bindingOf(env: RunEnv): ApprovalBinding {
  return { secret: env.approvalSecret, ttl: env.approvalTokenTtl, conversationKey: env.sessionId, now: () => env.scheduler.now() };
}
