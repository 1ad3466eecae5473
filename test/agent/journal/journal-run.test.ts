import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JournalLeaseError, MemoryJournalStore } from "../../../src/index.js";
import { fingerprintOf } from "../../../src/agent/journal/input-fingerprint.js";
import { RunJournal } from "../../../src/agent/journal/run-journal.js";
import { JournalStaleInputError } from "../../../src/agent/journal/journal-stale-input-error.js";
import type { Message } from "../../../src/index.js";
import { answer, call, env, input } from "./run-journal-fixtures.js";

// Issue 36: one run's journal, as a restarted run reads it and as the store receives it.

describe("RunJournal", () => {
  it("a fresh run records its input, calls, reply, outcomes and ending, and looks nothing up", async () => {
    const store = new MemoryJournalStore();
    const journal = await RunJournal.open(env(store), input);
    expect(journal.key).toBe("k");
    expect(journal.replaying).toBe(false);
    expect(journal.recordCall("model", 1, call("a"), "thinking")).toBeUndefined(); // durable at once: a synchronous store
    journal.recordReply(1, { role: "assistant", content: "x", toolCalls: [call("a")] }, "tool_calls");
    journal.recordOutcome("model", 1, answer("a"), { reason: "r" } as never);
    expect(journal.replyOf(1)).toBeUndefined();
    expect(journal.outcomeOf("model", 1, "a")).toBeUndefined();
    expect(journal.wasStarted("model", 1, "a")).toBe(false);
    await journal.end("done");
    expect(store.entries("k")).toEqual([
      { type: "run", input: fingerprintOf(input) },
      { type: "call", turn: 1, phase: "model", call: call("a"), text: "thinking" },
      { type: "reply", turn: 1, message: { role: "assistant", content: "x", toolCalls: [call("a")] }, finishReason: "tool_calls" },
      { type: "outcome", turn: 1, phase: "model", message: answer("a"), halt: { reason: "r" } },
      { type: "halt", haltedReason: "done" },
    ]);
    expect(store.acquire("k", "other", 10)).toHaveLength(5); // released
  });

  it("a run of the same input reads back what the last one recorded: whole replies, started calls, outcomes", async () => {
    const store = new MemoryJournalStore();
    const first = await RunJournal.open(env(store), input);
    first.recordCall("model", 1, call("a"), "t1");
    first.recordReply(1, { role: "assistant", content: "x", toolCalls: [call("a")] }, "tool_calls");
    first.recordOutcome("model", 1, answer("a"), undefined, { question: "q" } as never);
    first.recordCall("model", 2, call("b"), "t2");
    first.recordCall("model", 2, call("c"), "t2 and more");
    first.recordCall("resume", 2, call("d"), "");
    await first.release();

    const again = await RunJournal.open(env(store), input);
    expect(again.replaying).toBe(true);
    expect(again.replyOf(1)).toEqual({ message: { role: "assistant", content: "x", toolCalls: [call("a")] }, finishReason: "tool_calls", partial: false });
    expect(again.replyOf(2)).toEqual({
      message: { role: "assistant", content: "t2 and more", toolCalls: [call("b"), call("c")] },
      finishReason: "tool_calls",
      partial: true,
    });
    expect(again.replyOf(3)).toBeUndefined();
    expect(again.outcomeOf("model", 1, "a")).toEqual({ type: "outcome", turn: 1, phase: "model", message: answer("a"), question: { question: "q" } });
    expect(again.outcomeOf("resume", 1, "a")).toBeUndefined();
    expect(again.outcomeOf("model", 2, "a")).toBeUndefined();
    expect(again.wasStarted("model", 2, "c")).toBe(true);
    expect(again.wasStarted("model", 2, "d")).toBe(false);
    expect(again.wasStarted("resume", 2, "d")).toBe(true);
    expect(again.wasStarted("model", 3, "a")).toBe(false);
    // Recording again what is on record writes nothing; what is new is recorded and read back at once.
    const before = store.entries("k").length;
    expect(again.recordCall("model", 2, call("b"), "t2")).toBeUndefined();
    again.recordReply(1, { role: "assistant", content: "other" }, "stop");
    again.recordOutcome("model", 1, answer("a"));
    expect(store.entries("k")).toHaveLength(before);
    again.recordCall("model", 3, call("e"), "t3");
    again.recordReply(4, { role: "assistant", content: "y" }, "stop");
    again.recordOutcome("model", 3, answer("e"));
    expect(again.wasStarted("model", 3, "e")).toBe(true);
    expect(again.replyOf(4)).toMatchObject({ message: { content: "y" }, partial: false });
    expect(again.outcomeOf("model", 3, "e")).toMatchObject({ message: answer("e") });
    await again.flush();
    expect(store.entries("k")).toHaveLength(before + 3);
    await again.release();
  });

  it("another input starts a new run in the same journal; a run that recorded nothing but its input replays nothing", async () => {
    const store = new MemoryJournalStore();
    const first = await RunJournal.open(env(store), input);
    first.recordCall("model", 1, call("a"), "");
    await first.release();
    const other: Message[] = [...input, { role: "user", content: "and Bo" }];
    const second = await RunJournal.open(env(store), other);
    expect(second.replaying).toBe(false);
    expect(second.wasStarted("model", 1, "a")).toBe(false);
    await second.release();
    expect(store.entries("k").filter((e) => e.type === "run")).toEqual([
      { type: "run", input: fingerprintOf(input) },
      { type: "run", input: fingerprintOf(other) },
    ]);
    // The first input again, older than the latest run: refused, unless the host forks from it.
    await expect(RunJournal.open(env(store), input)).rejects.toThrow(JournalStaleInputError);
    expect(store.acquire("k", "other", 10)).toHaveLength(3); // the refusal let go of the lease
    store.release("k", "other", 1_000);
    // Forked: only the last run's entries count, and that run was another input's.
    const third = await RunJournal.open(env(store, { fork: true }), input);
    expect(third.replaying).toBe(false);
    await third.release();
    const fourth = await RunJournal.open(env(store), input);
    expect(fourth.replaying).toBe(false); // its input is on record, with nothing after it
    await fourth.release();
  });

  it("takes the lease as its owner, or as a fresh one, and leaves the entries `retainMs` on release, once", async () => {
    let now = 0;
    const store = new MemoryJournalStore({ now: () => now });
    const journal = await RunJournal.open(env(store, { owner: undefined }), input);
    expect(() => store.acquire("k", "w", 10)).toThrow(JournalLeaseError);
    await journal.release();
    await journal.release();
    now = 999;
    expect(store.entries("k")).toHaveLength(1);
    now = 1_000;
    expect(store.entries("k")).toEqual([]);
  });
});

describe("fingerprintOf", () => {
  it("is the same for the same conversation and differs for another, ending in the text's length", () => {
    const text = JSON.stringify(input);
    expect(fingerprintOf(input)).toBe(fingerprintOf(JSON.parse(text)));
    expect(fingerprintOf(input)).toMatch(new RegExp(`^[0-9a-z]+\\.${text.length}$`));
    expect(fingerprintOf([{ role: "user", content: "pay Bo!" }])).not.toBe(fingerprintOf(input));
    expect(fingerprintOf([{ role: "user", content: "pay Anb" }])).not.toBe(fingerprintOf(input));
    expect(fingerprintOf([])).toBe(fingerprintOf([]));
  });

  it("gives the same value in every version: a journal written before an upgrade is resumed after it", () => {
    // Known answers: a changed hash would make every journal on record look like another input's.
    expect(fingerprintOf([])).toBe("1mjsfpb3rfi.2");
    expect(fingerprintOf(input)).toBe("k7ouvgzas8.37");
    expect(fingerprintOf([{ role: "user", content: "Zahle Åsa 100 € ✓" }])).toBe("1kt38x10cre.47");
    expect(fingerprintOf([{ role: "user", content: "x".repeat(1000) }])).toBe("1f5zvvmfx0z.1030");
  });

  it("tells apart conversations of the same length that differ anywhere", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.nat(), fc.integer({ min: 1, max: 0xffff }), (text, at, delta) => {
        const i = at % text.length;
        const other = text.slice(0, i) + String.fromCharCode((text.charCodeAt(i) + delta) % 0x10000) + text.slice(i + 1);
        fc.pre(other !== text && JSON.stringify(other).length === JSON.stringify(text).length);
        expect(fingerprintOf([{ role: "user", content: other }])).not.toBe(fingerprintOf([{ role: "user", content: text }]));
      }),
    );
  });
});
