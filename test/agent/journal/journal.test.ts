import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  askUser,
  defineTool,
  JournalLeaseError,
  MemoryJournalStore,
  runAgent,
  streamAgent,
  type HandlerResult,
  type Message,
  type ToolExecutor,
} from "../../../src/index.js";
import { defaultExecutor } from "../../../src/tool/executor.js";
import { user } from "../../support/agent-helpers.js";
import { flushMicrotasks } from "../../support/helpers.js";
import { counted, crashWhen, input, randomIdModel } from "./journal-fixtures.js";

const answersOf = (messages: readonly Message[]) => messages.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? m.toolCallId : ""));
const callIdsOf = (messages: readonly Message[]) => messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []));

describe("journal", () => {
  it("a restart answers a recorded outcome from the record, a call cut off mid-run with its fate unknown, and never asks for the turn again", async () => {
    const store = new MemoryJournalStore();
    const fast = counted("fast");
    const stuck = counted("stuck", { hang: true });
    const first = randomIdModel([
      [
        { tool: "fast", n: 1 },
        { tool: "stuck", n: 2 },
      ],
    ]);
    const journal = { store, conversationKey: "conv-1", owner: "p1" };
    const tools = [fast.tool, stuck.tool];
    const died = await crashWhen(
      { model: first.model, tools, messages: input, journal },
      (e) => e.type === "tool_event" && e.event.type === "tool_result_encoded",
    );
    const ids = died.flatMap((e) => (e.type === "model_reply" ? (e.message.toolCalls ?? []).map((c) => c.id) : []));
    expect(ids).toHaveLength(2);

    const second = randomIdModel([
      [
        { tool: "fast", n: 1 },
        { tool: "stuck", n: 2 },
      ],
    ]);
    const result = await runAgent({ model: second.model, tools, messages: input, journal });
    expect(result.haltedReason).toBe("completed");
    expect(second.asked).toEqual([1]); // turn 0's reply was on record
    expect(fast.runs).toEqual([1]);
    expect(stuck.runs).toEqual([2]);
    expect(callIdsOf(result.messages)).toEqual(ids); // the original ids, not the new request's
    expect(answersOf(result.messages)).toEqual(ids);
    const unknown = result.messages.find((m) => m.role === "tool" && m.name === "stuck");
    expect(unknown?.role === "tool" && unknown.isError).toBe(true);
    expect(unknown?.role === "tool" ? JSON.parse(unknown.content).error : "").toMatch(/handler_exit.*unknown/);
  });

  it("sends an idempotent tool's cut-off call again, and a call on an executor that re-attaches", async () => {
    const store = new MemoryJournalStore();
    let hang = true;
    const again = counted("again", { idempotent: true });
    const remote = counted("remote");
    const executor: ToolExecutor & { reattaches: true } = {
      reattaches: true,
      execute: (tool, args, ctx) => (hang ? new Promise<HandlerResult>(() => {}) : defaultExecutor.execute(tool, args, ctx)),
    };
    const plan = [
      [
        { tool: "again", n: 1 },
        { tool: "remote", n: 2 },
      ],
    ];
    const journal = { store, conversationKey: "conv-2", owner: "p1" };
    const tools = [again.tool, remote.tool];
    await crashWhen({ model: randomIdModel(plan).model, tools, messages: input, journal, toolExecutor: executor }, (e) => e.type === "model_reply");
    hang = false;
    const second = randomIdModel(plan);
    const result = await runAgent({ model: second.model, tools, messages: input, journal, toolExecutor: executor });
    expect(second.asked).toEqual([1]);
    expect(remote.runs).toEqual([2]); // re-attached: the executor is asked again with the same call id, no handler ran before
    expect(again.runs).toEqual([1]); // idempotent: sent again (the executor had hung both calls in the first run)
    expect(result.messages.filter((m) => m.role === "tool").every((m) => m.role === "tool" && !m.isError)).toBe(true);
  });

  it("a reply cut off while the model streamed keeps the calls that had started, and the model is not asked for that turn again", async () => {
    const store = new MemoryJournalStore();
    const fast = counted("fast");
    const plan = [[{ tool: "fast", n: 1 }]];
    const journal = { store, conversationKey: "conv-3", owner: "p1" };
    await crashWhen(
      { model: randomIdModel(plan, 0).model, tools: [fast.tool], messages: input, journal },
      (e) => e.type === "tool_event" && e.event.type === "tool_result_encoded",
    );
    const second = randomIdModel(plan);
    const result = await runAgent({ model: second.model, tools: [fast.tool], messages: input, journal });
    expect(second.asked).toEqual([1]);
    expect(fast.runs).toEqual([1]);
    expect(result.messages[1]).toMatchObject({ role: "assistant", content: "turn 0" });
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: "done after 1 turns" });
  });

  it("a finished run started again with the same input ends the same, asking nothing and running nothing", async () => {
    const store = new MemoryJournalStore();
    const fast = counted("fast");
    const plan = [[{ tool: "fast", n: 1 }], [{ tool: "fast", n: 2 }]];
    const journal = { store, conversationKey: "conv-4" };
    const one = await runAgent({ model: randomIdModel(plan).model, tools: [fast.tool], messages: input, journal });
    const again = randomIdModel(plan);
    const two = await runAgent({ model: again.model, tools: [fast.tool], messages: input, journal });
    expect(again.asked).toEqual([]);
    expect(fast.runs).toEqual([1, 2]);
    expect(two).toEqual(one);
  });

  it("another input is a new run of the conversation: the model is asked", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "conv-5" };
    const first = randomIdModel([]);
    const one = await runAgent({ model: first.model, tools: [], messages: input, journal });
    const next = randomIdModel([]);
    await runAgent({ model: next.model, tools: [], messages: [...one.messages, user("more")], journal });
    expect(next.asked).toEqual([1]);
    expect(store.entries("conv-5").filter((e) => e.type === "run")).toHaveLength(2);
  });

  it("records a question and replays it as the same halt", async () => {
    const store = new MemoryJournalStore();
    const asks: string[] = [];
    const ask = defineTool({
      name: "ask",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: ({ n }) => {
        asks.push(String(n));
        return askUser(`which ${n}?`);
      },
    });
    const journal = { store, conversationKey: "conv-6" };
    const plan = [[{ tool: "ask", n: 1 }]];
    const one = await runAgent({ model: randomIdModel(plan).model, tools: [ask], messages: input, journal });
    const two = await runAgent({ model: randomIdModel(plan).model, tools: [ask], messages: input, journal });
    expect(one.haltedReason).toBe("ask_user");
    expect(two).toEqual(one);
    expect(asks).toEqual(["1"]);
  });

  it("two runs of one conversation at once: the second ends with a JournalLeaseError and runs nothing", async () => {
    const store = new MemoryJournalStore();
    const stuck = counted("stuck", { hang: true });
    const plan = [[{ tool: "stuck", n: 1 }]];
    const a = streamAgent({
      model: randomIdModel(plan).model,
      tools: [stuck.tool],
      messages: input,
      journal: { store, conversationKey: "c", owner: "a" },
    }).subscribe();
    await flushMicrotasks();
    const second = randomIdModel(plan);
    const b = await runAgent({ model: second.model, tools: [stuck.tool], messages: input, journal: { store, conversationKey: "c", owner: "b" } });
    expect(b.haltedReason).toBe("error");
    const error = b.haltedReason === "error" ? b.metadata.error : undefined;
    expect(error).toBeInstanceOf(JournalLeaseError);
    expect((error as JournalLeaseError).message).toBe('the journal of conversation "c" is held by "a": another run of it is under way');
    expect(second.asked).toEqual([]);
    expect(stuck.runs).toEqual([1]);
    a.unsubscribe();
  });

  it("a dead process's lease runs out (virtual clock); the same owner takes it back at once", async () => {
    let now = 0;
    const store = new MemoryJournalStore({ now: () => now });
    store.acquire("k", "dead", 1_000);
    expect(() => store.acquire("k", "other", 1_000)).toThrow(JournalLeaseError);
    expect(store.acquire("k", "dead", 1_000)).toEqual([]);
    now = 999;
    expect(() => store.acquire("k", "other", 1_000)).toThrow(JournalLeaseError);
    now = 1_000;
    expect(store.acquire("k", "other", 1_000)).toEqual([]);
    expect(() => store.append("k", "dead", [{ type: "halt", haltedReason: "x" }])).toThrow(JournalLeaseError);
    expect(store.renew("k", "dead", 1_000)).toBe(false);
  });

  it("keeps the journal `retainMs` after a run ends (virtual clock), and `retainMs: 0` deletes it at once", async () => {
    let now = 0;
    const store = new MemoryJournalStore({ now: () => now });
    await runAgent({ model: randomIdModel([]).model, tools: [], messages: input, journal: { store, conversationKey: "kept", retainMs: 500 } });
    await runAgent({ model: randomIdModel([]).model, tools: [], messages: input, journal: { store, conversationKey: "gone", retainMs: 0 } });
    expect(store.entries("kept").map((e) => e.type)).toEqual(["run", "reply", "halt"]);
    expect(store.entries("gone")).toEqual([]);
    now = 499;
    expect(store.entries("kept")).toHaveLength(3);
    now = 500;
    expect(store.entries("kept")).toEqual([]);
  });

  it("a store that fails a write fails the run closed, before the call starts", async () => {
    const store = new MemoryJournalStore();
    const failing = { ...bind(store), append: () => Promise.reject(new Error("disk full")) };
    const fast = counted("fast");
    const result = await runAgent({
      model: randomIdModel([[{ tool: "fast", n: 1 }]]).model,
      tools: [fast.tool],
      messages: input,
      journal: { store: failing, conversationKey: "f" },
    });
    expect(result.haltedReason).toBe("error");
    expect(result.haltedReason === "error" && (result.metadata.error as Error).message).toBe("disk full");
    expect(fast.runs).toEqual([]);
  });

  it("checks the option up front", () => {
    const store = new MemoryJournalStore();
    const base = { model: randomIdModel([]).model, tools: [], messages: input };
    expect(() => streamAgent({ ...base, journal: { store, conversationKey: "" } })).toThrow(/`journal.conversationKey`/);
    expect(() => streamAgent({ ...base, journal: { store: {} as MemoryJournalStore, conversationKey: "k" } })).toThrow(/`journal.store`.*`acquire`/);
    expect(() => streamAgent({ ...base, journal: { store, conversationKey: "k", leaseMs: 0 } })).toThrow(/`journal.leaseMs`/);
    expect(() => streamAgent({ ...base, journal: { store, conversationKey: "k", retainMs: -1 } })).toThrow(/`journal.retainMs`/);
    expect(() => streamAgent({ ...base, journal: { store, conversationKey: "k", owner: "" } })).toThrow(/`journal.owner`/);
  });
});

function bind(store: MemoryJournalStore) {
  return {
    acquire: store.acquire.bind(store),
    append: store.append.bind(store),
    renew: store.renew.bind(store),
    release: store.release.bind(store),
  };
}
