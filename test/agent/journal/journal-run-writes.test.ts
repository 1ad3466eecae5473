import { describe, expect, it } from "vitest";
import { JournalLeaseError, MemoryJournalStore, type JournalEntry, type JournalStore } from "../../../src/index.js";
import { RunJournal } from "../../../src/agent/journal/run-journal.js";
import { call, env, input, tick } from "./run-journal-fixtures.js";

// Issue 36: one run's journal writes, in order and fail-closed, under a lease it renews.

/** A store whose appends (after the run's first) settle when told, recording what arrived in order. */
function slowStore() {
  const inner = new MemoryJournalStore();
  const pending: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  let opened = false;
  const store: JournalStore = {
    acquire: (k, o, l) => inner.acquire(k, o, l),
    append: (k, o, entries) =>
      new Promise<void>((resolve, reject) => {
        if (!opened) {
          opened = true;
          inner.append(k, o, entries);
          resolve();
          return;
        }
        pending.push({
          resolve: () => {
            inner.append(k, o, entries);
            resolve();
          },
          reject,
        });
      }),
    renew: (k, o, l) => inner.renew(k, o, l),
    release: (k, o, r) => inner.release(k, o, r),
  };
  return { store, inner, pending };
}

describe("RunJournal", () => {
  it("keeps writes in order on a store that answers later, and a call's record is durable before it starts", async () => {
    const { store, inner, pending } = slowStore();
    const journal = await RunJournal.open(env(store), input);
    let durable = false;
    void journal.recordCall("model", 1, call("a"), "")?.then(() => {
      durable = true;
    });
    journal.recordReply(1, { role: "assistant", content: "" }, "stop");
    const flushed = journal.flush();
    expect(flushed).toBeInstanceOf(Promise);
    await tick();
    expect(durable).toBe(false);
    expect(pending).toHaveLength(1); // one append at a time
    pending.shift()?.resolve();
    await tick();
    expect(durable).toBe(true);
    pending.shift()?.resolve();
    await flushed;
    expect(inner.entries("k").map((e: JournalEntry) => e.type)).toEqual(["run", "call", "reply"]);
    expect(journal.flush()).toBeUndefined(); // nothing pending
    await journal.release();
  });

  it("fails closed: after a failed write, the writes queued behind it are dropped and flush rejects with that error", async () => {
    const { store, inner, pending } = slowStore();
    const journal = await RunJournal.open(env(store), input);
    const boom = new Error("store down");
    const first = journal.recordCall("model", 1, call("a"), "");
    const second = journal.recordCall("model", 1, call("b"), "");
    pending.shift()?.reject(boom);
    await expect(first).rejects.toBe(boom);
    await expect(second).rejects.toBe(boom);
    expect(pending).toHaveLength(0);
    await expect(journal.flush()).rejects.toBe(boom);
    expect(inner.entries("k").map((e) => e.type)).toEqual(["run"]);
    await journal.release();
    expect(inner.acquire("k", "someone", 10)).toHaveLength(1);
  });

  it("a store that throws on append fails the write and every later flush", async () => {
    const inner = new MemoryJournalStore();
    const boom = new Error("sync failure");
    let fail = false;
    const store: JournalStore = {
      acquire: (k, o, l) => inner.acquire(k, o, l),
      append: (k, o, e) => {
        if (fail) throw boom;
        inner.append(k, o, e);
      },
      renew: () => true,
      release: (k, o, r) => inner.release(k, o, r),
    };
    const journal = await RunJournal.open(env(store), input);
    fail = true;
    await expect(journal.recordCall("model", 1, call("a"), "")).rejects.toBe(boom);
    await expect(journal.flush()).rejects.toBe(boom);
    await journal.release();
  });

  it("renews its lease every third of it, and a lease lost meanwhile fails the next flush", async () => {
    const { vi } = await import("vitest");
    vi.useFakeTimers();
    try {
      let held = true;
      const renewed: number[] = [];
      const inner = new MemoryJournalStore();
      const store: JournalStore = {
        acquire: (k, o, l) => inner.acquire(k, o, l),
        append: (k, o, e) => inner.append(k, o, e),
        renew: (_k, _o, leaseMs) => {
          renewed.push(leaseMs);
          if (renewed.length === 2) throw new Error("blip"); // a store down for one renewal changes nothing
          return Promise.resolve(held);
        },
        release: (k, o, r) => inner.release(k, o, r),
      };
      const journal = await RunJournal.open(env(store, { leaseMs: 300 }), input);
      await vi.advanceTimersByTimeAsync(99);
      expect(renewed).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(renewed).toEqual([300]);
      await vi.advanceTimersByTimeAsync(100);
      expect(renewed).toHaveLength(2);
      expect(journal.flush()).toBeUndefined();
      held = false;
      await vi.advanceTimersByTimeAsync(100);
      await expect(journal.flush()).rejects.toEqual(new JournalLeaseError("k", undefined));
      await journal.release();
      const count = renewed.length;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(renewed).toHaveLength(count); // no renewal after release
      const short = await RunJournal.open(env(new MemoryJournalStore(), { leaseMs: 10 }), input);
      await short.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a lease not renewed after release is no failure", async () => {
    const { vi } = await import("vitest");
    vi.useFakeTimers();
    try {
      const inner = new MemoryJournalStore();
      let release: () => void = () => undefined;
      const store: JournalStore = {
        acquire: (k, o, l) => inner.acquire(k, o, l),
        append: (k, o, e) => inner.append(k, o, e),
        renew: () =>
          new Promise<boolean>((resolve) => {
            release = () => resolve(false);
          }),
        release: (k, o, r) => inner.release(k, o, r),
      };
      const journal = await RunJournal.open(env(store, { leaseMs: 30 }), input);
      await vi.advanceTimersByTimeAsync(10);
      await journal.release();
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(journal.flush()).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
