import { judgeDecision, spendApproval, type Verdict } from "../../tool/approval/approval-decision.js";
import { ApprovalMismatchError } from "../../tool/approval/approval-mismatch-error.js";
import type { Message } from "../../tool/message.js";
import type { BatchEnv } from "../batch/index.js";
import type { OpenTurn } from "../conversation/index.js";
import type { JournalVerdict } from "../journal/index.js";

/**
 * Check every decision after the open turn and say what each comes to, before anything of the
 * resume runs: one that does not match fails the whole resume closed. A decision on a call
 * answered before it is a record of the past (the run it approved put the answer there) and
 * counts for nothing; the last decision on a call is the one that counts.
 *
 * @throws {ApprovalMismatchError} for the first decision that does not match; what a rule throws.
 */
export async function settleDecisions(open: OpenTurn, env: BatchEnv, conversation: readonly Message[], turn: number): Promise<Map<string, Verdict>> {
  const journal = env.journal;
  const recorded = journal?.decisionsOf(turn);
  if (recorded !== undefined) {
    // A restart of this input: the decisions stand as judged when they were recorded (a token
    // that expired since still counts: the calls it approved may have run, and are answered
    // from the record), and an approval spent since is this run's own spend.
    const verdicts = new Map(recorded.map((v) => [v.toolCallId, verdictOf(v)]));
    await spendAll(verdicts, env, () => undefined, true);
    return verdicts;
  }
  const last = new Map<string, number>();
  open.decisions.forEach(({ message, at }, k) => {
    const id = message.toolCallId;
    const call = open.all.find((c) => c.id === id);
    const answeredAt = open.answered.get(id);
    const manual = call !== undefined && (env.agent.manualMode || env.lookup(call.name)?.manual === true);
    if (call === undefined || (answeredAt !== undefined && answeredAt > at) || (answeredAt === undefined && manual)) {
      throw new ApprovalMismatchError("not_pending", id, { index: at });
    }
    if (answeredAt === undefined) last.set(id, k);
  });
  const verdicts = new Map<string, Verdict>();
  const { agent } = env;
  for (const [id, k] of last) {
    const { message, at } = open.decisions[k] as (typeof open.decisions)[number];
    const call = open.all.find((c) => c.id === id) as (typeof open.all)[number];
    const reissued = open.decisions
      .slice(0, k)
      .filter((d) => d.message.toolCallId === id && d.message.approved && d.message.arguments !== undefined)
      .map((d) => d.message.arguments as Record<string, unknown>);
    const approvalContext = {
      toolCall: call,
      messages: conversation,
      context: agent.context,
      sessionId: agent.sessionId,
      requestId: agent.requestId,
      signal: env.signal,
    };
    verdicts.set(
      id,
      await judgeDecision(message, call, env.lookup(call.name), { binding: agent.approvalBinding, validate: agent.validate, reissued, at, approvalContext }),
    );
  }
  // On record before any is spent: a process that dies between a spend and its call's record
  // leaves a restart that knows the spend as its own.
  await journal?.recordDecisions(
    turn,
    [...verdicts].map(([toolCallId, v]) => ({ toolCallId, ...v })),
  );
  await spendAll(verdicts, env, (id) => open.decisions[last.get(id) as number]?.at, false);
  return verdicts;
}

/**
 * Spend each approval that runs its call in the run's `approvalLedger`. `own`: the decisions were
 * on record before this run's first start spent them, so a key found spent is that start's spend
 * (the journal keeps the call from running twice: its recorded outcome answers it, or its fate is
 * unknown); the ledger's refusal, meant for a replayed request, does not apply.
 */
async function spendAll(verdicts: ReadonlyMap<string, Verdict>, env: BatchEnv, at: (id: string) => number | undefined, own: boolean): Promise<void> {
  const { approvalLedger: ledger, approvalBinding } = env.agent;
  if (ledger === undefined) return;
  for (const [id, verdict] of verdicts) {
    if (verdict.kind !== "run") continue;
    try {
      await spendApproval(ledger, verdict.call, approvalBinding, at(id));
    } catch (e) {
      if (!(own && e instanceof ApprovalMismatchError && e.reason === "already_used")) throw e;
    }
  }
}

function verdictOf(recorded: JournalVerdict): Verdict {
  if (recorded.kind === "deny") return { kind: "deny", reason: recorded.reason };
  return { kind: recorded.kind, call: recorded.call };
}
