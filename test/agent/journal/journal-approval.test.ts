import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, MemoryJournalStore, ok, runAgent } from "../../../src/index.js";
import { crashWhen, input, randomIdModel } from "./journal-fixtures.js";

describe("journal and the approval ledger", () => {
  it("a restarted resume whose approval this run already spent replays; a replayed request without the journal is still refused", async () => {
    const { approve, memoryApprovalLedger } = await import("../../../src/index.js");
    const runs: number[] = [];
    const pay = defineTool({
      name: "pay",
      description: "",
      schema: z.object({ n: z.number() }),
      needsApproval: true,
      handler: ({ n }) => {
        runs.push(n);
        return ok(`paid ${n}`);
      },
    });
    const secret = "s".repeat(32);
    const ledger = memoryApprovalLedger();
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "conv-pay" };
    const plan = [[{ tool: "pay", n: 7 }]];
    const first = await runAgent({ model: randomIdModel(plan).model, tools: [pay], messages: input, journal, approvalSecret: secret, approvalLedger: ledger });
    expect(first.haltedReason).toBe("approval_required");
    const pending = (first as { metadata: { pendingApprovals: readonly { toolCallId: string; token?: string }[] } }).metadata.pendingApprovals[0];
    const resumed = [...first.messages, approve(pending as never)];
    // The resume runs the payment, then its process dies before the run ends: a crash after the spend.
    await crashWhen(
      { model: randomIdModel(plan).model, tools: [pay], messages: resumed, journal, approvalSecret: secret, approvalLedger: ledger },
      (e) => e.type === "tool_event" && e.event.type === "tool_execution_completed",
    );
    expect(runs).toEqual([7]);
    // Started again with the same input: the journal replays it, the payment is not made again.
    const again = await runAgent({
      model: randomIdModel(plan).model,
      tools: [pay],
      messages: resumed,
      journal,
      approvalSecret: secret,
      approvalLedger: ledger,
    });
    expect(again.haltedReason).not.toBe("error");
    expect(runs).toEqual([7]);
    // The same request in the same conversation without the journal finds the approval spent.
    const replay = await runAgent({
      model: randomIdModel(plan).model,
      tools: [pay],
      messages: resumed,
      sessionId: "conv-pay",
      approvalSecret: secret,
      approvalLedger: ledger,
    });
    expect(replay.haltedReason).toBe("error");
    expect((replay as { metadata: { error: { reason?: unknown } } }).metadata.error.reason).toBe("already_used");
    expect(runs).toEqual([7]);
  });
});
