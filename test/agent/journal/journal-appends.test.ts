import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, MemoryJournalStore, ok, runAgent, type JournalEntry, type JournalStore } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { RunJournal } from "../../../src/agent/journal/run-journal.js";
import { answer, call, env, input, tick } from "./run-journal-fixtures.js";

// Issue 46: the outcomes that settle in one tick go to the store in one append, while each call's
// own record is still appended (and durable) before the call starts.

/** A memory store that keeps each append's entry types, one list per append, in order. */
function countingStore() {
  const inner = new MemoryJournalStore();
  const appends: string[][] = [];
  const store: JournalStore = {
    acquire: (k, o, l) => inner.acquire(k, o, l),
    append: (k, o, entries) => {
      appends.push(entries.map((e) => e.type));
      inner.append(k, o, entries);
    },
    renew: (k, o, l) => inner.renew(k, o, l),
    release: (k, o, r) => inner.release(k, o, r),
  };
  return { store, appends, inner };
}

describe("the journal's appends", () => {
  it("a turn of synchronous calls appends each call's record alone, before it runs, and all of its outcomes in one append", async () => {
    const { store, appends } = countingStore();
    const ran: string[] = [];
    const pay = defineTool({
      name: "pay",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: ({ n }) => {
        // The call's record is on the store when its handler runs.
        ran.push(`${n}:${appends.at(-1)?.join()}`);
        return ok(n);
      },
    });
    const turn = (t: number) => [
      ...[0, 1, 2].map((c) => ({ type: "tool_call" as const, call: { id: `t${t}c${c}`, name: "pay", arguments: { n: 3 * t + c } } })),
      { type: "finish" as const, reason: "tool_calls" as const },
    ];
    const model = scriptedModel([turn(0), turn(1), [{ type: "text_delta", text: "done" }]]);
    const result = await runAgent({ model, tools: [pay], messages: input, journal: { store, conversationKey: "k" } });
    expect(result.haltedReason).toBe("completed");
    expect(ran).toEqual(["0:call", "1:call", "2:call", "3:call", "4:call", "5:call"]);
    const turnAppends = ["call", "call", "call", "reply", "outcome,outcome,outcome"];
    expect(appends.map((a) => a.join())).toEqual(["run", ...turnAppends, ...turnAppends, "reply", "halt"]);
  });

  it("outcomes recorded in one tick reach the store together once the tick's work is done, without a flush", async () => {
    const { store, appends, inner } = countingStore();
    const journal = await RunJournal.open(env(store), input);
    journal.recordCall("model", 1, call("a"), "");
    journal.recordCall("model", 1, call("b"), "");
    journal.recordOutcome("model", 1, answer("a"));
    journal.recordOutcome("model", 1, answer("b"));
    expect(appends.map((a) => a.join())).toEqual(["run", "call", "call"]);
    await tick();
    expect(appends.map((a) => a.join())).toEqual(["run", "call", "call", "outcome,outcome"]);
    expect(inner.entries("k").slice(3)).toEqual([
      { type: "outcome", turn: 1, phase: "model", message: answer("a") },
      { type: "outcome", turn: 1, phase: "model", message: answer("b") },
    ]);
    await journal.release();
  });

  it("an outcome kept for the end of the tick is written when the run lets go of the lease before then, and a restart answers from it", async () => {
    const { store, appends } = countingStore();
    const journal = await RunJournal.open(env(store), input);
    journal.recordCall("model", 1, call("a"), "");
    journal.recordOutcome("model", 1, answer("a"));
    await journal.release();
    expect(appends.map((a) => a.join())).toEqual(["run", "call", "outcome"]);
    const again = await RunJournal.open(env(store), input);
    expect(again.outcomeOf("model", 1, "a")?.message).toEqual(answer("a"));
    await again.release();
  });

  it("a run's ending goes after the outcomes still kept, in the same append", async () => {
    const { store, appends, inner } = countingStore();
    const journal = await RunJournal.open(env(store, { retainMs: Infinity }), input);
    journal.recordCall("model", 1, call("a"), "");
    journal.recordOutcome("model", 1, answer("a"));
    await journal.end("completed");
    expect(appends.map((a) => a.join())).toEqual(["run", "call", "outcome,halt"]);
    expect(inner.entries("k").map((e: JournalEntry) => e.type)).toEqual(["run", "call", "outcome", "halt"]);
  });
});
