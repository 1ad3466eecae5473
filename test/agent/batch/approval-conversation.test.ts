import { VirtualTimeScheduler } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  approvalToken,
  approve,
  defineTool,
  memoryApprovalLedger,
  ok,
  runAgent,
  runToolCalls,
  type AgentOptions,
  type AgentResult,
  type ApprovalLedger,
  type Message,
  type PendingApproval,
  type ToolCall,
} from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, text, toolCall, user } from "../../support/agent-helpers.js";

// Issue 30, item 3: an approval counts in its own conversation only, for a limited time if asked.

function transferTool() {
  const handler = vi.fn(({ to, eur }: { to: string; eur: number }) => ok({ sent: eur, to }));
  const tool = defineTool({ name: "transfer", description: "", schema: z.object({ to: z.string(), eur: z.number() }), needsApproval: true, handler });
  return { tool, handler };
}

/** One conversation: the model calls `transfer` with id t1 (as a model reusing ids would), then answers. */
function conversation(options: Partial<AgentOptions>) {
  const { tool, handler } = transferTool();
  const model = scriptedModel([[toolCall("t1", "transfer", { to: "Ana", eur: 250 })], [text("Sent."), finish("stop")]]);
  const base = { model, tools: [tool], ...options };
  const start = () => runAgent({ ...base, messages: [user("pay Ana")] });
  const resume = (messages: readonly Message[], more: Partial<AgentOptions> = {}) => runAgent({ ...base, ...more, messages });
  return { handler, model, start, resume };
}

function pendingOf(r: AgentResult): PendingApproval {
  if (r.haltedReason !== "approval_required") throw new Error(`ended with ${r.haltedReason}`);
  return r.metadata.pendingApprovals[0] as PendingApproval;
}

const reasonOf = (r: AgentResult) => (r.haltedReason === "error" ? (r.metadata.error as { reason?: string }).reason : r.haltedReason);

describe("the agent loop binds approvals to the conversation (sessionId)", () => {
  const secret = "server secret";

  it("two conversations whose calls share id, tool and arguments get different tokens, and each runs once on one ledger", async () => {
    const approvalLedger = memoryApprovalLedger();
    const a = conversation({ approvalSecret: secret, approvalLedger, sessionId: "conv-a" });
    const b = conversation({ approvalSecret: secret, approvalLedger, sessionId: "conv-b" });
    const [ha, hb] = [await a.start(), await b.start()];
    expect(pendingOf(ha).token).not.toBe(pendingOf(hb).token);
    expect((await a.resume([...ha.messages, approve(pendingOf(ha))])).haltedReason).toBe("completed");
    expect((await b.resume([...hb.messages, approve(pendingOf(hb))])).haltedReason).toBe("completed");
    expect([a.handler.mock.calls.length, b.handler.mock.calls.length]).toEqual([1, 1]);
    // Each one's replay is still spent in its own conversation.
    expect(reasonOf(await a.resume([...ha.messages, approve(pendingOf(ha))]))).toBe("already_used");
  });

  it("without a secret too, the ledger keys on the conversation: the second conversation is not refused already_used", async () => {
    const approvalLedger = memoryApprovalLedger();
    const a = conversation({ approvalLedger, sessionId: "conv-a" });
    const b = conversation({ approvalLedger, sessionId: "conv-b" });
    const [ha, hb] = [await a.start(), await b.start()];
    expect((await a.resume([...ha.messages, approve(pendingOf(ha))])).haltedReason).toBe("completed");
    expect((await b.resume([...hb.messages, approve(pendingOf(hb))])).haltedReason).toBe("completed");
    expect(reasonOf(await b.resume([...hb.messages, approve(pendingOf(hb))]))).toBe("already_used");
    expect([a.handler.mock.calls.length, b.handler.mock.calls.length]).toEqual([1, 1]);
  });

  it.each([
    ["another conversation's", "conv-a", "conv-b"],
    ["a keyed conversation's, where there is no key", "conv-a", undefined],
    ["a keyless conversation's, where there is a key", undefined, "conv-b"],
  ])("a token replayed from %s is refused conversation_mismatch: nothing runs, the model is not asked", async (_name, from, to) => {
    const minted = conversation({ approvalSecret: secret, sessionId: from });
    const replayed = conversation({ approvalSecret: secret, sessionId: to });
    const halted = await minted.start();
    await replayed.start();
    const result = await replayed.resume([...halted.messages, approve(pendingOf(halted))]);
    expect(result).toMatchObject({
      haltedReason: "error",
      metadata: { error: { name: "ApprovalMismatchError", reason: "conversation_mismatch", toolCallId: "t1" } },
    });
    expect(replayed.handler).not.toHaveBeenCalled();
    expect(replayed.model.requests).toHaveLength(1);
  });

  it("the token is the one approvalToken makes for the conversation's key", async () => {
    const halted = await conversation({ approvalSecret: secret, sessionId: "conv-a" }).start();
    expect(pendingOf(halted).token).toBe(
      await approvalToken(secret, { id: "t1", name: "transfer", arguments: { to: "Ana", eur: 250 }, conversationKey: "conv-a" }),
    );
  });

  it("rotation: a token signed with the old secret runs once the new one signs, and not once the old is dropped", async () => {
    const c = conversation({ approvalSecret: "old", sessionId: "conv-a" });
    const halted = await c.start();
    const decided = [...halted.messages, approve(pendingOf(halted))];
    expect(reasonOf(await c.resume(decided, { approvalSecret: ["new"] }))).toBe("token_invalid");
    expect((await c.resume(decided, { approvalSecret: ["new", "old"] })).haltedReason).toBe("completed");
    expect(c.handler).toHaveBeenCalledTimes(1);
  });

  it("expiry, in the scheduler's virtual time: accepted until approvalTokenTtl has passed, then token_expired", async () => {
    const scheduler = new VirtualTimeScheduler();
    scheduler.frame = 1_000;
    const c = conversation({ approvalSecret: secret, sessionId: "conv-a", approvalTokenTtl: 60_000, scheduler });
    const halted = await c.start();
    expect(pendingOf(halted).token?.split(".")[2]).toBe("61000");
    const decided = [...halted.messages, approve(pendingOf(halted))];
    scheduler.frame = 61_000;
    const late = await c.resume(decided);
    expect(late).toMatchObject({ haltedReason: "error", metadata: { error: { reason: "token_expired", toolCallId: "t1" } } });
    expect(c.handler).not.toHaveBeenCalled();
    scheduler.frame = 60_999;
    expect((await c.resume(decided)).haltedReason).toBe("completed");
    expect(c.handler).toHaveBeenCalledTimes(1);
  });

  it("approvalTokenTtl is checked up front: a positive number, and only with a secret", async () => {
    const { tool } = transferTool();
    const base = { model: scriptedModel([]), tools: [tool], messages: [user("hi")] };
    await expect(runAgent({ ...base, approvalTokenTtl: 60_000 })).rejects.toThrow("Expected `approvalSecret` with `approvalTokenTtl`: only a token can expire");
    for (const ttl of [0, -1, Number.NaN, "60s", 1e16]) {
      await expect(runAgent({ ...base, approvalSecret: secret, approvalTokenTtl: ttl as number })).rejects.toThrow(
        /^Expected `approvalTokenTtl` to be a positive number of milliseconds up to 1e15, or Infinity, got /,
      );
    }
    await expect(runAgent({ ...base, approvalSecret: [] as never })).rejects.toThrow(
      "Expected `approvalSecret` to be a secret or a non-empty array of secrets, got []",
    );
    expect(base.model.requests).toHaveLength(0);
  });
});

describe("the batch runner binds approvals to its sessionId", () => {
  const calls: ToolCall[] = [{ id: "t1", name: "transfer", arguments: { to: "Ana", eur: 250 } }];

  async function held(
    sessionId: string | undefined,
    options: { approvalLedger?: ApprovalLedger; approvalTokenTtl?: number; scheduler?: VirtualTimeScheduler } = {},
  ) {
    const { tool, handler } = transferTool();
    const first = await runToolCalls(calls, [tool], { approvalSecret: "s", sessionId, ...options });
    const pending = first.pendingApprovals?.[0] as PendingApproval;
    const decide = (to: string | undefined) => runToolCalls(calls, [tool], { approvalSecret: "s", sessionId: to, ...options, approvals: [approve(pending)] });
    return { handler, pending, decide };
  }

  it.each([
    ["conv-a", "conv-b"],
    ["conv-a", undefined],
    [undefined, "conv-b"],
  ])("a token of session %o is refused in session %o: the call is answered with conversation_mismatch and does not run", async (from, to) => {
    const { handler, decide } = await held(from);
    const result = await decide(to);
    expect(result.messages[0]?.content).toContain("carries a token issued in another conversation");
    expect(handler).not.toHaveBeenCalled();
    await decide(from);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("the same call in two sessions is spent once in each on a shared ledger", async () => {
    const approvalLedger = memoryApprovalLedger();
    const a = await held("conv-a", { approvalLedger });
    const b = await held("conv-b", { approvalLedger });
    expect(a.pending.token).not.toBe(b.pending.token);
    await a.decide("conv-a");
    await b.decide("conv-b");
    expect((await b.decide("conv-b")).messages[0]?.content).toContain("was used already");
    expect([a.handler.mock.calls.length, b.handler.mock.calls.length]).toEqual([1, 1]);
  });

  it("a token expires on the run's scheduler clock", async () => {
    const scheduler = new VirtualTimeScheduler();
    const { handler, decide } = await held("conv-a", { approvalTokenTtl: 10, scheduler });
    scheduler.frame = 10;
    expect((await decide("conv-a")).messages[0]?.content).toContain("carries a token that has expired");
    expect(handler).not.toHaveBeenCalled();
    scheduler.frame = 9;
    expect((await decide("conv-a")).messages[0]?.isError).toBe(false);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
