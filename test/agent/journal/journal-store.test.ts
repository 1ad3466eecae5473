import { describe, expect, it } from "vitest";
import { JournalLeaseError, MemoryJournalStore, type JournalEntry } from "../../../src/index.js";
import { replayOf } from "../../../src/agent/journal/journal-replay.js";

// Issue 36: the journal's store, lease error and replay, each held to what a host relies on.

const run = (input: string): JournalEntry => ({ type: "run", input });

function clocked(): { store: MemoryJournalStore; at: (t: number) => void } {
  let now = 1_000;
  const at = (t: number): void => {
    now = t;
  };
  return { store: new MemoryJournalStore({ now: () => now }), at };
}

describe("MemoryJournalStore", () => {
  it("gives an owner back what it appended, as a copy the caller may change", () => {
    const { store } = clocked();
    expect(store.acquire("k", "a", 100)).toEqual([]);
    store.append("k", "a", [run("1"), run("2")]);
    store.append("k", "a", [run("3")]);
    const got = store.acquire("k", "a", 100) as JournalEntry[];
    expect(got).toEqual([run("1"), run("2"), run("3")]);
    got.pop();
    (store.entries("k") as JournalEntry[]).pop();
    expect(store.entries("k")).toEqual([run("1"), run("2"), run("3")]);
    expect(store.entries("other")).toEqual([]);
  });

  it("refuses another owner until the lease has run out, to the millisecond, naming the holder", () => {
    const { store, at } = clocked();
    store.acquire("k", "a", 100); // leased until 1100
    store.append("k", "a", [run("1")]);
    at(1_099);
    expect(() => store.acquire("k", "b", 100)).toThrow(new JournalLeaseError("k", "a").message);
    try {
      store.acquire("k", "b", 100);
    } catch (e) {
      expect(e).toBeInstanceOf(JournalLeaseError);
      expect(e).toMatchObject({ conversationKey: "k", holder: "a" });
    }
    expect(store.acquire("k", "a", 100)).toEqual([run("1")]); // the owner itself, at once: until 1199
    at(1_198);
    expect(() => store.acquire("k", "b", 100)).toThrow(JournalLeaseError);
    at(1_199);
    expect(store.acquire("k", "b", 100)).toEqual([run("1")]);
    expect(() => store.append("k", "a", [run("x")])).toThrow(new JournalLeaseError("k", "b").message);
  });

  it("lets only the owner append, even past its lease until another takes the key", () => {
    const { store, at } = clocked();
    expect(() => store.append("k", "a", [run("1")])).toThrow(new JournalLeaseError("k", undefined).message);
    store.acquire("k", "a", 10);
    at(5_000);
    store.append("k", "a", [run("late")]);
    expect(store.entries("k")).toEqual([run("late")]);
    expect(() => store.append("k", "b", [run("x")])).toThrow(new JournalLeaseError("k", "a").message);
  });

  it("renews only the owner's lease, from now", () => {
    const { store, at } = clocked();
    expect(store.renew("k", "a", 100)).toBe(false);
    store.acquire("k", "a", 100);
    expect(store.renew("k", "b", 100)).toBe(false);
    at(1_090);
    expect(store.renew("k", "a", 100)).toBe(true); // until 1190
    at(1_189);
    expect(() => store.acquire("k", "b", 100)).toThrow(JournalLeaseError);
    at(1_190);
    expect(store.acquire("k", "b", 100)).toEqual([]);
    expect(store.renew("k", "a", 100)).toBe(false);
  });

  it("on release, hands the key to anyone at once and keeps the entries `retainMs`, to the millisecond", () => {
    const { store, at } = clocked();
    store.acquire("k", "a", 100_000);
    store.append("k", "a", [run("1")]);
    store.release("k", "b", 10); // not the owner: nothing happens
    expect(() => store.acquire("k", "b", 100)).toThrow(JournalLeaseError);
    store.release("k", "a", 50); // kept until 1050
    at(1_049);
    expect(store.entries("k")).toEqual([run("1")]);
    expect(store.acquire("k", "b", 100)).toEqual([run("1")]); // taken again: kept for as long as it is held
    store.release("k", "b", 50); // until 1099
    at(1_098);
    expect(store.entries("k")).toEqual([run("1")]);
    at(1_099);
    expect(store.entries("k")).toEqual([]);
    expect(store.renew("k", "b", 100)).toBe(false);
  });

  it("keeps a held key's entries past any earlier retention, and drops them at once with `retainMs: 0`", () => {
    const { store, at } = clocked();
    store.acquire("k", "a", 100);
    store.append("k", "a", [run("1")]);
    store.release("k", "a", 10);
    store.acquire("k", "a", 100);
    at(1_000_000);
    expect(store.entries("k")).toEqual([run("1")]);
    store.acquire("k", "a", 100);
    store.release("k", "a", 0);
    expect(store.entries("k")).toEqual([]);
    expect(store.acquire("k", "b", 100)).toEqual([]);
    store.release("k", "b", -1);
    expect(store.entries("k")).toEqual([]);
  });

  it("takes a release of a key it does not hold, or no longer has, as done", () => {
    const { store } = clocked();
    expect(() => store.release("never", "a", 10)).not.toThrow();
    store.acquire("k", "a", 100);
    store.release("k", "a", 0);
    expect(() => store.release("k", "a", 0)).not.toThrow();
    expect(store.entries("k")).toEqual([]);
  });

  it("delete forgets lease and entries", () => {
    const { store } = clocked();
    store.acquire("k", "a", 100_000);
    store.append("k", "a", [run("1")]);
    store.delete("k");
    expect(store.entries("k")).toEqual([]);
    expect(store.acquire("k", "b", 100)).toEqual([]);
  });

  it("refuses a clock that is not a function", () => {
    expect(() => new MemoryJournalStore({ now: 5 as never })).toThrow(new TypeError("Expected `now` to be a function () => number of milliseconds"));
    expect(() => new MemoryJournalStore()).not.toThrow();
    const store = new MemoryJournalStore();
    store.acquire("k", "a", 60_000);
    expect(() => store.acquire("k", "b", 60_000)).toThrow(JournalLeaseError); // Date.now by default
  });
});

describe("JournalLeaseError", () => {
  it("names the conversation and the holder, or says another owner", () => {
    const held = new JournalLeaseError("conv-7", "worker-b");
    expect(held).toBeInstanceOf(Error);
    expect(held.name).toBe("JournalLeaseError");
    expect(held.message).toBe('the journal of conversation "conv-7" is held by "worker-b": another run of it is under way');
    expect(held).toMatchObject({ conversationKey: "conv-7", holder: "worker-b" });
    const unknown = new JournalLeaseError("c", undefined);
    expect(unknown.message).toBe('the journal of conversation "c" is held by another owner: another run of it is under way');
    expect(unknown.holder).toBeUndefined();
  });
});

describe("replayOf", () => {
  it("gives back a recorded reply as the model's events: its text, its calls in order, its finish", () => {
    const calls = [
      { id: "1", name: "a", arguments: {} },
      { id: "2", name: "b", arguments: { x: 1 } },
    ];
    expect(replayOf({ message: { role: "assistant", content: "hi", toolCalls: calls }, finishReason: "tool_calls", partial: false })).toEqual([
      { type: "text_delta", text: "hi" },
      { type: "tool_call", call: calls[0] },
      { type: "tool_call", call: calls[1] },
      { type: "finish", reason: "tool_calls" },
    ]);
    expect(replayOf({ message: { role: "assistant", content: "" }, finishReason: "stop", partial: false })).toEqual([{ type: "finish", reason: "stop" }]);
  });
});

describe("MemoryJournalStore, the holder's writes and any clock", () => {
  it("lets its holder append without reading the clock, and refuses the former holder once released, kept or dropped", () => {
    let now = 1_000;
    let reads = 0;
    const store = new MemoryJournalStore({
      now: () => {
        reads++;
        return now;
      },
    });
    store.acquire("k", "a", 100);
    const afterAcquire = reads;
    for (let i = 0; i < 5; i++) store.append("k", "a", [run(String(i))]);
    expect(reads).toBe(afterAcquire);
    store.release("k", "a", 50);
    expect(() => store.append("k", "a", [run("x")])).toThrow(new JournalLeaseError("k", undefined).message);
    now = 1_050;
    expect(() => store.append("k", "a", [run("x")])).toThrow(new JournalLeaseError("k", undefined).message);
    expect(store.entries("k")).toEqual([]);
    store.acquire("k", "a", 100);
    store.release("k", "a", 0);
    expect(() => store.append("k", "a", [run("x")])).toThrow(new JournalLeaseError("k", undefined).message);
  });

  it.each([0, -5_000])(
    "finds a key nobody holds free on a clock at %d (a virtual one may start before the epoch), and still honours a lease there",
    (start) => {
      const store = new MemoryJournalStore({ now: () => start });
      expect(store.acquire("k", "a", 100)).toEqual([]);
      store.append("k", "a", [run("1")]);
      expect(() => store.acquire("k", "b", 100)).toThrow(new JournalLeaseError("k", "a").message);
      store.release("k", "a", 10_000);
      expect(store.acquire("k", "b", 100)).toEqual([run("1")]);
    },
  );
});
