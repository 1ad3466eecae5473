import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { approvalToken, defineTool, memoryApprovalLedger, ok, type ApprovalSecrets, type Tool, type ToolCall } from "../../src/index.js";
import type { ApprovalBinding } from "../../src/tool/approval/approval-binding.js";
import { judgeDecision, spendApproval, type JudgeOptions } from "../../src/tool/approval/approval-decision.js";
import type { ApprovalMessage } from "../../src/tool/message.js";

// judgeDecision and spendApproval one by one (issue 36: the survivors of the approval core).

const call: ToolCall = { id: "c1", name: "transfer", arguments: { to: "Ana", eur: 250 }, rawArguments: '{"to":"Ana","eur":250}' };

function transfer(rule: (args: { to: string; eur: number }, ctx?: unknown) => boolean = ({ eur }) => eur > 100) {
  const needsApproval = vi.fn(rule);
  const tool = defineTool({ name: "transfer", description: "", schema: z.object({ to: z.string(), eur: z.number() }), needsApproval, handler: () => ok(1) });
  return { tool: tool as unknown as Tool, needsApproval };
}

function binding(secret?: ApprovalSecrets, more: Partial<ApprovalBinding> = {}): ApprovalBinding {
  return { secret, ttl: Infinity, conversationKey: "conv-a", now: () => 0, ...more };
}

function options(more: Partial<JudgeOptions> = {}): JudgeOptions {
  const approvalContext = { toolCall: call, messages: [], context: {}, sessionId: undefined, requestId: undefined, signal: new AbortController().signal };
  return { binding: binding(), validate: true, reissued: [], approvalContext, ...more };
}

const approved = (more: Partial<ApprovalMessage> = {}): ApprovalMessage => ({ role: "approval", toolCallId: "c1", approved: true, ...more });
const tokenFor = (args: Record<string, unknown>, secret = "k", conversationKey: string | undefined = "conv-a", expiresAt?: number) =>
  approvalToken(secret, { id: "c1", name: "transfer", arguments: args, conversationKey }, { expiresAt });

describe("judgeDecision without a secret", () => {
  it("a denial comes to deny, with its reason", async () => {
    expect(await judgeDecision({ role: "approval", toolCallId: "c1", approved: false, reason: "no" }, call, transfer().tool, options())).toEqual({
      kind: "deny",
      reason: "no",
    });
  });

  it("an approval that names no arguments runs the model's, asking the rule nothing", async () => {
    const { tool, needsApproval } = transfer();
    const verdict = await judgeDecision(approved(), call, tool, options({ reissued: [{ to: "Eve", eur: 300 }] }));
    expect(verdict.kind === "run" && verdict.call).toBe(call);
    expect(needsApproval).not.toHaveBeenCalled();
  });

  it("an error without an index has no index key at all", async () => {
    const e = await judgeDecision(approved({ arguments: { to: 7 } }), call, transfer().tool, options()).catch((x: unknown) => x);
    expect(Object.keys((e as { metadata: object }).metadata)).toEqual(["issues"]);
    const ledger = memoryApprovalLedger();
    await spendApproval(ledger, call, binding());
    const spent = await spendApproval(ledger, call, binding()).catch((x: unknown) => x);
    expect(Object.keys((spent as { metadata: object }).metadata)).toEqual([]);
  });

  it("an approval as asked runs the very call, asking the rule nothing", async () => {
    const { tool, needsApproval } = transfer();
    const verdict = await judgeDecision(approved({ arguments: { eur: 250, to: "Ana" } }), call, tool, options());
    expect(verdict.kind).toBe("run");
    expect(verdict.kind === "run" && verdict.call).toBe(call);
    expect(needsApproval).not.toHaveBeenCalled();
  });

  it("approving edited arguments put up again runs them as they were put up, asking the rule nothing more", async () => {
    const { tool, needsApproval } = transfer();
    const reissued = [{ to: "Eve", eur: 300 }];
    const verdict = await judgeDecision(approved({ arguments: { eur: 300, to: "Eve" } }), call, tool, options({ reissued }));
    expect(verdict).toEqual({ kind: "run", call: { id: "c1", name: "transfer", arguments: { to: "Eve", eur: 300 } } });
    expect(verdict.kind === "run" && verdict.call.arguments).toBe(reissued[0]);
    expect(needsApproval).not.toHaveBeenCalled();
  });

  it("edited arguments never put up are validated and put to the rule: asked again when it still asks", async () => {
    const { tool, needsApproval } = transfer();
    const verdict = await judgeDecision(approved({ arguments: { to: "Eve", eur: 300 } }), call, tool, options({ reissued: [{ to: "Bob", eur: 500 }] }));
    expect(verdict).toEqual({ kind: "ask", call: { id: "c1", name: "transfer", arguments: { to: "Eve", eur: 300 } } });
    expect(needsApproval).toHaveBeenCalledTimes(1);
    expect((needsApproval.mock.calls[0] as unknown[] | undefined)?.[1]).toMatchObject({ toolCall: { arguments: { to: "Eve", eur: 300 } } });
  });

  it("edited arguments the rule no longer asks about run, without the provider's text (it described the model's)", async () => {
    const verdict = await judgeDecision(approved({ arguments: { to: "Ana", eur: 50 } }), call, transfer().tool, options());
    expect(verdict).toEqual({ kind: "run", call: { id: "c1", name: "transfer", arguments: { to: "Ana", eur: 50 } } });
  });

  it("edited arguments the schema refuses are arguments_invalid, with the issues and the index", async () => {
    const refused = judgeDecision(approved({ arguments: { to: 7 } }), call, transfer().tool, options({ at: 4 }));
    await expect(refused).rejects.toMatchObject({
      reason: "arguments_invalid",
      toolCallId: "c1",
      metadata: { index: 4, issues: [{ path: ["to"] }, { path: ["eur"] }] },
    });
  });

  it("with validation off, edited arguments are not checked against the schema", async () => {
    const { tool } = transfer(() => false);
    const verdict = await judgeDecision(approved({ arguments: { to: 7 } }), call, tool, options({ validate: false }));
    expect(verdict).toEqual({ kind: "run", call: { id: "c1", name: "transfer", arguments: { to: 7 } } });
  });

  it("a call whose tool is gone: edited arguments run as edited (the runner answers not_found), with nothing to check them against", async () => {
    const verdict = await judgeDecision(approved({ arguments: { to: "Eve" } }), call, undefined, options());
    expect(verdict).toEqual({ kind: "run", call: { id: "c1", name: "transfer", arguments: { to: "Eve" } } });
  });
});

describe("judgeDecision with a secret", () => {
  const secret = binding("k");

  it("an approval without a token is token_missing; a denial needs none", async () => {
    await expect(judgeDecision(approved(), call, transfer().tool, options({ binding: secret }))).rejects.toMatchObject({
      reason: "token_missing",
      metadata: {},
    });
    await expect(judgeDecision(approved(), call, transfer().tool, options({ binding: secret, at: 2 }))).rejects.toMatchObject({ metadata: { index: 2 } });
    expect((await judgeDecision({ role: "approval", toolCallId: "c1", approved: false }, call, undefined, options({ binding: secret }))).kind).toBe("deny");
  });

  it("the token decides which arguments were put up: a token for edited arguments put up again runs those", async () => {
    const reissued = [
      { to: "Eve", eur: 300 },
      { to: "Bob", eur: 400 },
    ];
    const token = await tokenFor({ to: "Bob", eur: 400 });
    const verdict = await judgeDecision(approved({ token }), call, transfer().tool, options({ binding: secret, reissued }));
    expect(verdict).toEqual({ kind: "run", call: { id: "c1", name: "transfer", arguments: { to: "Bob", eur: 400 } } });
  });

  it("a token for the model's arguments with edited ones in the decision puts the edit to the rule", async () => {
    const token = await tokenFor(call.arguments);
    const verdict = await judgeDecision(approved({ token, arguments: { to: "Ana", eur: 900 } }), call, transfer().tool, options({ binding: secret }));
    expect(verdict).toEqual({ kind: "ask", call: { id: "c1", name: "transfer", arguments: { to: "Ana", eur: 900 } } });
  });

  it("a genuine token's own fault wins over token_invalid, whichever candidate it was made for", async () => {
    const reissued = [{ to: "Eve", eur: 300 }];
    for (const [token, reason] of [
      [await tokenFor({ to: "Eve", eur: 300 }, "k", "conv-b"), "conversation_mismatch"],
      [await tokenFor(call.arguments, "k", "conv-b"), "conversation_mismatch"],
      [await tokenFor({ to: "Eve", eur: 300 }, "k", "conv-a", 0), "token_expired"],
      [await tokenFor({ to: "Eve", eur: 300 }, "other"), "token_invalid"],
    ] as const) {
      await expect(judgeDecision(approved({ token }), call, transfer().tool, options({ binding: secret, reissued, at: 1 }))).rejects.toMatchObject({
        name: "ApprovalMismatchError",
        reason,
        metadata: { index: 1 },
      });
    }
  });

  it("expiry is read from the binding's clock once per decision", async () => {
    const now = vi.fn(() => 99);
    const token = await tokenFor(call.arguments, "k", "conv-a", 100);
    expect((await judgeDecision(approved({ token }), call, transfer().tool, options({ binding: binding("k", { now }) }))).kind).toBe("run");
    expect(now).toHaveBeenCalledTimes(1);
    now.mockReturnValue(100);
    await expect(judgeDecision(approved({ token }), call, transfer().tool, options({ binding: binding("k", { now }) }))).rejects.toMatchObject({
      reason: "token_expired",
    });
  });
});

describe("spendApproval", () => {
  it("spends a call once per conversation, failing closed with already_used and the index", async () => {
    const ledger = memoryApprovalLedger();
    await spendApproval(ledger, call, binding());
    await spendApproval(ledger, call, binding(undefined, { conversationKey: "conv-b" }));
    await spendApproval(ledger, call, binding(undefined, { conversationKey: undefined }));
    await expect(spendApproval(ledger, call, binding(), 3)).rejects.toMatchObject({ reason: "already_used", toolCallId: "c1", metadata: { index: 3 } });
    await expect(spendApproval(ledger, call, binding())).rejects.toMatchObject({ reason: "already_used", metadata: {} });
  });
});
