import { VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  approve,
  askUser,
  defineTool,
  MemoryJournalStore,
  memoryApprovalLedger,
  ok,
  runAgent,
  type ApprovalLedger,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type PendingApproval,
  type ToolExecutor,
} from "../../../src/index.js";
import { dyingProcess, type DyingProcess } from "../../support/dying-process.js";
import { expectValidForEveryProvider, input, modelCalling, refundTool, runUntilKilled, secret } from "./seam-fixtures.js";

const pendingOf = (run: { metadata: unknown }) => (run.metadata as { pendingApprovals: PendingApproval[] }).pendingApprovals;

describe("the journal where approvals meet a kill", () => {
  it("a kill between the ledger's spend and the call's record: the restart with the same input runs the call once and completes", async () => {
    const { tool, runs } = refundTool();
    const { model } = modelCalling("refund");
    const store = new MemoryJournalStore();
    const ledger = memoryApprovalLedger();
    const journal = { store, conversationKey: "order-7", owner: "agent" };
    const base = { model, tools: [tool], approvalSecret: secret };
    const first = await runAgent({ ...base, messages: input, journal, approvalLedger: ledger });
    expect(first.haltedReason).toBe("approval_required");
    const resumed = [...first.messages, ...pendingOf(first).map((p) => approve(p))];
    const proc = dyingProcess(store);
    // The spend reaches the ledger; the process dies before it hears back.
    const killing: ApprovalLedger = {
      consume: async (key, ttlMs) => {
        const spent = await ledger.consume(key, ttlMs);
        proc.kill();
        return spent;
      },
    };
    await runUntilKilled({ ...base, messages: resumed, journal: { ...journal, store: proc.store }, approvalLedger: killing }, proc);
    expect(runs).toEqual([]);
    const again = await runAgent({ ...base, messages: resumed, journal, approvalLedger: ledger });
    expect(again.haltedReason).toBe("completed");
    expect(runs).toEqual([7]);
    expect(again.messages.filter((m) => m.role === "tool")).toMatchObject([{ content: "refunded 7", isError: false }]);
    expectValidForEveryProvider(again.messages);
    // The same request without the journal still finds the approval spent.
    const replay = await runAgent({ ...base, messages: resumed, sessionId: "order-7", approvalLedger: ledger });
    expect(replay).toMatchObject({ haltedReason: "error", metadata: { error: { reason: "already_used" } } });
    expect(runs).toEqual([7]);
  });

  it("a token that expired after its call ran: the restart answers the call from the record instead of ending `token_expired`", async () => {
    const scheduler = new VirtualTimeScheduler();
    const store = new MemoryJournalStore();
    const ledger = memoryApprovalLedger();
    let proc: DyingProcess | undefined;
    // The refund happens; its process dies before the outcome is written.
    const { tool, runs } = refundTool(() => proc?.kill());
    const { model } = modelCalling("refund");
    const journal = { store, conversationKey: "order-8", owner: "agent" };
    const base = { model, tools: [tool], approvalSecret: secret, approvalTokenTtl: 4_000, approvalLedger: ledger, scheduler };
    const first = await runAgent({ ...base, messages: input, journal });
    const resumed = [...first.messages, ...pendingOf(first).map((p) => approve(p))];
    proc = dyingProcess(store);
    await runUntilKilled({ ...base, messages: resumed, journal: { ...journal, store: proc.store } }, proc);
    expect(runs).toEqual([7]);
    scheduler.frame = 4_500;
    const again = await runAgent({ ...base, messages: resumed, journal });
    expect(again.haltedReason).toBe("completed");
    expect(runs).toEqual([7]);
    const answers = again.messages.filter((m) => m.role === "tool");
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ isError: true, content: expect.stringContaining("handler_exit") });
    expectValidForEveryProvider(again.messages);
  });
});

describe("a decision refused `token_expired`, asked again from the ending before (seam property counterexample)", () => {
  it("is not a stale input when the runs since recorded no work: no fork needed, and the call runs once", async () => {
    const scheduler = new VirtualTimeScheduler();
    const { tool, runs } = refundTool();
    const ask = defineTool({ name: "ask", description: "", schema: z.object({ order: z.number() }), handler: () => askUser("Which card?") });
    const model = (request: ModelRequest): ModelEvent[] =>
      request.messages.some((m) => m.role === "assistant")
        ? [{ type: "text_delta", text: "Done." }]
        : [
            { type: "tool_call", call: { id: "r1", name: "refund", arguments: { order: 7 } } },
            { type: "tool_call", call: { id: "a1", name: "ask", arguments: { order: 7 } } },
          ];
    const journal = { store: new MemoryJournalStore(), conversationKey: "order-12" };
    const base = { model, tools: [tool, ask], approvalSecret: secret, approvalTokenTtl: 60_000, approvalLedger: memoryApprovalLedger(), scheduler, journal };
    const asked = await runAgent({ ...base, messages: input });
    expect(asked.haltedReason).toBe("ask_user");
    // The user answers the question; the run that reads it halts for the approval, adding nothing.
    const answered: Message[] = [...asked.messages, { role: "user", content: "the blue one" }];
    const held = await runAgent({ ...base, messages: answered });
    expect(held.haltedReason).toBe("approval_required");
    expect(held.messages).toEqual(answered);
    scheduler.frame = 70_000;
    const late = await runAgent({ ...base, messages: [...held.messages, ...pendingOf(held).map((p) => approve(p))] });
    expect(late).toMatchObject({ haltedReason: "error", metadata: { error: { reason: "token_expired" } } });
    // The host drops the stale decision and asks again from the ending before: the input of a run that did nothing.
    const again = await runAgent({ ...base, messages: held.messages });
    expect(again.haltedReason).toBe("approval_required");
    const done = await runAgent({ ...base, messages: [...again.messages, ...pendingOf(again).map((p) => approve(p))] });
    expect(done.haltedReason).toBe("completed");
    expect(runs).toEqual([7]);
    expectValidForEveryProvider(done.messages);
  });
});

describe("a call in flight on an executor named by `control.executor`", () => {
  it("is asked of that executor in `toolExecutors`: one that re-attaches gets the call again, not a fate-unknown answer", async () => {
    const sent: number[] = [];
    let proc: DyingProcess | undefined;
    // Stands in for a remote executor whose job ids derive from the call id (bullmqExecutor).
    const remote: ToolExecutor & { reattaches: true } = {
      reattaches: true,
      execute: (_tool, args) => {
        sent.push(args.order as number);
        if (sent.length === 1) {
          proc?.kill();
          return new Promise(() => {}); // the first process dies while the job runs
        }
        return ok(`refunded ${args.order as number}`);
      },
    };
    const refund = defineTool({
      name: "refund",
      description: "",
      schema: z.object({ order: z.number() }),
      control: { executor: "remote" },
      handler: () => ok("never here"),
    });
    const { model } = modelCalling("refund");
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-13", owner: "agent" };
    proc = dyingProcess(store);
    await runUntilKilled({ model, tools: [refund], messages: input, toolExecutors: { remote }, journal: { ...journal, store: proc.store } }, proc);
    const again = await runAgent({ model, tools: [refund], messages: input, toolExecutors: { remote }, journal });
    expect(again.haltedReason).toBe("completed");
    expect(again.messages.filter((m) => m.role === "tool")).toMatchObject([{ content: "refunded 7", isError: false }]);
    expect(sent).toEqual([7, 7]);
  });
});
