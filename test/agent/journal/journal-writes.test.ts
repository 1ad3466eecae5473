import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryJournalStore, type JournalEntry, type JournalStore } from "../../../src/index.js";
import { RunJournal } from "../../../src/agent/journal/run-journal.js";
import { answer, call, env, input, tick } from "./run-journal-fixtures.js";

// Issue 36: how one run's journal writes (its queue of appends, its handles, its memory), as a
// store and a restarted run see it.

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A store whose appends settle when told, one by one; `appended` is what it received, in order. */
function slowStore() {
  const appended: JournalEntry[] = [];
  const pending: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  const store: JournalStore = {
    acquire: () => [],
    append: (_k, _o, entries) =>
      new Promise<void>((resolve, reject) => {
        pending.push({
          resolve: () => {
            appended.push(...entries);
            resolve();
          },
          reject,
        });
      }),
    renew: () => true,
    release: () => undefined,
  };
  return { store, appended, pending };
}

/** Opens a journal on a slow store, its `run` entry already durable. */
async function openSlow() {
  const slow = slowStore();
  const opening = RunJournal.open(env(slow.store), input);
  await tick();
  slow.pending.shift()?.resolve();
  return { ...slow, journal: await opening };
}

const reply = (turn: number) => ({ role: "assistant" as const, content: `reply ${turn}` });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("RunJournal's writes", () => {
  it("flush waits for a write still pending and rejects with its failure", async () => {
    const { journal, pending } = await openSlow();
    const boom = new Error("store down");
    journal.recordReply(1, reply(1), "stop");
    const flushed = journal.flush();
    pending.shift()?.reject(boom);
    await expect(flushed).rejects.toBe(boom);
    await journal.release();
  });

  it("a write queued behind another that fails makes the next flush reject: nothing is lost silently", async () => {
    const { journal, pending, appended } = await openSlow();
    const boom = new Error("store down");
    journal.recordReply(1, reply(1), "stop");
    journal.recordReply(2, reply(2), "stop");
    pending.shift()?.resolve();
    await tick();
    pending.shift()?.reject(boom);
    await tick();
    await expect(journal.flush()).rejects.toBe(boom);
    expect(appended.slice(1).map((e) => e.type === "reply" && e.turn)).toEqual([1]);
    await journal.release();
  });

  it("flush waits for the last write pending, and answers undefined once all are durable", async () => {
    const { journal, pending } = await openSlow();
    journal.recordReply(1, reply(1), "stop");
    pending.shift()?.resolve();
    await tick();
    expect(journal.flush()).toBeUndefined();
    journal.recordReply(2, reply(2), "stop");
    journal.recordReply(3, reply(3), "stop");
    journal.recordReply(4, reply(4), "stop");
    const flushed = journal.flush();
    for (let left = 3; left > 0; left--) {
      // Each durable write leaves the ones behind it pending: flush still waits for them.
      expect(journal.flush()).toBeInstanceOf(Promise);
      pending.shift()?.resolve();
      await tick();
    }
    await flushed;
    expect(journal.flush()).toBeUndefined();
    await journal.release();
  });

  it("lets go of the lease once, however often it is released or ended", async () => {
    const inner = new MemoryJournalStore();
    const release = vi.fn((k: string, o: string, r: number) => inner.release(k, o, r));
    const store: JournalStore = {
      acquire: (k, o, l) => inner.acquire(k, o, l),
      append: (k, o, e) => inner.append(k, o, e),
      renew: (k, o, l) => inner.renew(k, o, l),
      release,
    };
    const journal = await RunJournal.open(env(store), input);
    await journal.end("completed");
    await journal.release();
    await journal.release();
    expect(release).toHaveBeenCalledTimes(1);
    expect(release).toHaveBeenCalledWith("k", "w", 1_000);
  });

  it("an outcome without halt or question has no such fields: plain JSON a store of any encoding reads back the same", async () => {
    const appended: JournalEntry[] = [];
    const store: JournalStore = { acquire: () => [], append: (_k, _o, e) => void appended.push(...e), renew: () => true, release: () => undefined };
    const journal = await RunJournal.open(env(store), input);
    journal.recordOutcome("model", 1, answer("a"));
    journal.recordOutcome("model", 1, answer("b"), { reason: "r" } as never);
    journal.recordOutcome("model", 1, answer("c"), undefined, { question: "q" } as never);
    await journal.flush();
    expect(appended.slice(1).map((e) => Object.keys(e))).toEqual([
      ["type", "turn", "phase", "message"],
      ["type", "turn", "phase", "message", "halt"],
      ["type", "turn", "phase", "message", "question"],
    ]);
    await journal.release();
  });

  it("runs where a timer is a number (a browser), without `unref`", async () => {
    const set = vi.spyOn(globalThis, "setInterval").mockReturnValue(7 as never);
    const clear = vi.spyOn(globalThis, "clearInterval").mockImplementation(() => undefined);
    const journal = await RunJournal.open(env(new MemoryJournalStore()), input);
    expect(set).toHaveBeenCalledTimes(1);
    await journal.release();
    expect(clear).toHaveBeenCalledWith(7);
  });
});

describe("RunJournal's handles", () => {
  it("writes each call's handle once, at once on a synchronous store, and a handle shared by two calls for each", async () => {
    const store = new MemoryJournalStore();
    const journal = await RunJournal.open(env(store), input);
    journal.recordHandle("model", 1, "a", "task-1");
    journal.recordHandle("model", 1, "a", "task-1");
    journal.recordHandle("model", 1, "b", "task-1");
    journal.recordHandle("model", 1, "a", "task-2");
    expect(store.entries("k").slice(1)).toEqual([
      { type: "handle", turn: 1, phase: "model", toolCallId: "a", handle: "task-1" },
      { type: "handle", turn: 1, phase: "model", toolCallId: "b", handle: "task-1" },
      { type: "handle", turn: 1, phase: "model", toolCallId: "a", handle: "task-2" },
    ]);
    // This run's own calls are not cut-off calls: only a restart follows their handles.
    expect(journal.handleOf("model", 1, "a")).toBeUndefined();
    await journal.release();
    const again = await RunJournal.open(env(store), input);
    expect(again.handleOf("model", 1, "a")).toBe("task-2");
    expect(again.handleOf("model", 1, "b")).toBe("task-1");
    expect(again.handleOf("resume", 1, "a")).toBeUndefined();
    await again.release();
  });

  it("a call whose outcome is on record names no handle: a restart answers it from the record", async () => {
    const store = new MemoryJournalStore();
    const first = await RunJournal.open(env(store), input);
    first.recordCall("model", 1, call("a"), "");
    first.recordOutcome("model", 1, answer("a"));
    await first.release();
    const again = await RunJournal.open(env(store), input);
    const before = store.entries("k").length;
    again.recordHandle("model", 1, "a", "task-1");
    expect(store.entries("k")).toHaveLength(before);
    expect(again.handleOf("model", 1, "a")).toBeUndefined();
    await again.release();
  });
});

describe("RunJournal's memory", () => {
  /** Records `n` calls with their replies and outcomes, made here so that no frame of the test keeps one. */
  function recordAll(journal: RunJournal, n: number): WeakRef<object>[] {
    const refs: WeakRef<object>[] = [];
    for (let turn = 1; turn <= n; turn++) {
      const c = call(`c${turn}`);
      const message = { role: "assistant" as const, content: `reply ${turn}`, toolCalls: [c] };
      const outcome = answer(c.id);
      refs.push(new WeakRef(c), new WeakRef(message), new WeakRef(outcome));
      void journal.recordCall("model", turn, c, "");
      journal.recordReply(turn, message, "tool_calls");
      journal.recordOutcome("model", turn, outcome);
    }
    return refs;
  }

  it("a fresh run keeps none of what it wrote: a long conversation costs the process nothing per call", async () => {
    // A store that keeps its entries elsewhere (here: nowhere), as a database does.
    const store: JournalStore = { acquire: () => [], append: () => undefined, renew: () => true, release: () => undefined };
    const journal = await RunJournal.open(env(store), input);
    const refs = recordAll(journal, 30);
    await tick();
    gc();
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    expect(journal.replaying).toBe(false);
    await journal.release();
  });
});
