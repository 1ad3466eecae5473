import { Observable, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  approve,
  askUser,
  defineTool,
  JournalStaleInputError,
  MemoryJournalStore,
  memoryApprovalLedger,
  ok,
  RecordedEndingError,
  runAgent,
  streamAgent,
  type AgentOptions,
  type ApprovalLedger,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type PendingApproval,
  type ToolExecutor,
} from "../../../src/index.js";
import { anthropic, checkConversation, openai } from "../../../src/providers/index.js";
import { dyingProcess, type DyingProcess } from "../../support/dying-process.js";

const input: Message[] = [{ role: "user", content: "Refund order 7" }];
const secret = "s".repeat(32);

/** A refund that needs approval, counted where it runs; `during` runs inside the handler (a kill, say). */
function refundTool(during: () => void = () => {}) {
  const runs: number[] = [];
  const tool = defineTool({
    name: "refund",
    description: "Refund an order",
    schema: z.object({ order: z.number() }),
    needsApproval: true,
    handler: ({ order }) => {
      runs.push(order);
      during();
      return ok(`refunded ${order}`);
    },
  });
  return { tool, runs };
}

/** A model like OpenAI's (new call ids on every request): after the user's words it calls `name`, after a result it is done. */
function modelCalling(name: string) {
  let asked = 0;
  const model = (request: ModelRequest): ModelEvent[] => {
    asked++;
    return request.messages.at(-1)?.role === "user"
      ? [{ type: "tool_call", call: { id: `call_${Math.random().toString(36).slice(2)}`, name, arguments: { order: 7 } } }]
      : [{ type: "text_delta", text: "Done." }];
  };
  return { model, asked: () => asked };
}

/** Run in a process that `proc.kill()` stops somewhere inside; resolves once it is dead (or, failing the test, ended). */
function runUntilKilled(options: AgentOptions, proc: DyingProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (!proc.dead) return;
      clearInterval(timer);
      resolve();
    }, 2);
    streamAgent(options).subscribe((e) => {
      if (e.type === "agent_halted" && !proc.dead) {
        clearInterval(timer);
        reject(new Error(`the run ended ${e.haltedReason} before the kill`));
      }
    });
  });
}

function expectValidForEveryProvider(messages: readonly Message[]): void {
  expect(checkConversation(openai.toChatMessages(messages), "openai-chat")).toEqual([]);
  expect(checkConversation(openai.toResponsesInput(messages), "openai-responses")).toEqual([]);
  expect(checkConversation(anthropic.toMessages(messages).messages, "anthropic")).toEqual([]);
}

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

describe("a recorded ending", () => {
  it("plays back on the next start with the same input: the model is not asked and nothing runs", async () => {
    const { tool, runs } = refundTool();
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-9" };
    const failing = () => {
      throw new Error("503 from the provider");
    };
    const first = await runAgent({ model: failing, tools: [tool], messages: input, journal });
    expect(first.haltedReason).toBe("error");
    const { model, asked } = modelCalling("refund");
    const again = await runAgent({ model, tools: [tool], messages: input, journal });
    expect(again.haltedReason).toBe("error");
    const error = (again.metadata as { error: unknown }).error;
    expect(error).toBeInstanceOf(RecordedEndingError);
    expect(error).toMatchObject({ haltedReason: "error", recorded: { name: "Error", message: "503 from the provider" } });
    expect(again.messages).toEqual(first.messages);
    expect(asked()).toBe(0);
    expect(runs).toEqual([]);
    // Going on from the ending's messages is a new input, so a new run.
    const next = await runAgent({ model, tools: [tool], messages: [...again.messages, { role: "user", content: "try again" }], journal });
    expect(next.haltedReason).toBe("approval_required");
    expect(asked()).toBe(1);
  });

  it("a cancelled ending plays back as cancelled", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-10" };
    const controller = new AbortController();
    // The user leaves while the model writes.
    const leaving = () =>
      new Observable<ModelEvent>(() => {
        controller.abort(new Error("the user left"));
      });
    const first = await runAgent({ model: leaving, tools: [], messages: input, journal, signal: controller.signal });
    expect(first.haltedReason).toBe("cancelled");
    expect(store.entries("order-10").map((e) => e.type)).toEqual(["run", "halt"]);
    const { model, asked } = modelCalling("refund");
    const again = await runAgent({ model, tools: [], messages: input, journal });
    expect(again).toMatchObject({ haltedReason: "cancelled", metadata: { reason: { recorded: { message: "the user left" } } } });
    expect(asked()).toBe(0);
  });
});

describe("an input older than the conversation's latest recorded run", () => {
  it("is refused with JournalStaleInputError, having run nothing, unless the host forks", async () => {
    const charges: number[] = [];
    const charge = defineTool({
      name: "charge",
      description: "Charge the card",
      schema: z.object({ order: z.number() }),
      handler: ({ order }) => {
        charges.push(order);
        return ok(`charged ${order}`);
      },
    });
    const { model } = modelCalling("charge");
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-11" };
    const first = await runAgent({ model, tools: [charge], messages: input, journal });
    const latest: Message[] = [...first.messages, { role: "user", content: "and once more" }];
    const later = await runAgent({ model, tools: [charge], messages: latest, journal });
    expect(later.haltedReason).toBe("completed");
    expect(charges).toEqual([7, 7]);
    // A host that restored an older save.
    const stale = await runAgent({ model, tools: [charge], messages: input, journal });
    expect(stale.haltedReason).toBe("error");
    expect((stale.metadata as { error: unknown }).error).toBeInstanceOf(JournalStaleInputError);
    expect(stale.messages).toEqual(input);
    expect(charges).toEqual([7, 7]);
    // The latest input still plays back.
    expect((await runAgent({ model, tools: [charge], messages: latest, journal })).haltedReason).toBe("completed");
    expect(charges).toEqual([7, 7]);
    const forked = await runAgent({ model, tools: [charge], messages: input, journal: { ...journal, fork: true } });
    expect(forked.haltedReason).toBe("completed");
    expect(charges).toEqual([7, 7, 7]);
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
