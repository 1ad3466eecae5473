import { expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type HandlerResult, type JournalEntry, JournalLeaseError, type JournalStore, ok, runAgent, streamAgent } from "../../src/index.js";
import { randomIdModel } from "./random-id-model.js";

/** A journal store as the contract reads it: the `JournalStore` a run uses, and the inspection every store has. */
export interface ContractStore extends JournalStore {
  entries(key: string): readonly JournalEntry[] | Promise<readonly JournalEntry[]>;
  delete(key: string): void | Promise<void>;
}

/** How one store runs the contract; asked for after the store's `beforeAll`, once per scenario. */
export interface JournalStoreDriver {
  /** The store every scenario shares: each scenario uses keys of its own. */
  readonly store: ContractStore;
  /**
   * The lease and retention the time-bound scenarios use, in ms: long enough on a server that a
   * loaded 2-core machine's pauses between two awaits stay well inside it, short on a virtual clock.
   */
  readonly unitMs: number;
  /** Let `ms` pass for the store: the memory store's clock moves at once, a server's store is slept on. */
  elapse(ms: number): Promise<void>;
  /** The same store with `ttlMs` for a run nobody ended; absent where the store has no such option. */
  withTtl?(ttlMs: number): ContractStore;
  /** The store's own sweep of expired journals, answering how many it deleted; absent where expiry needs none. */
  purgeExpired?(): Promise<number>;
}

/** The store's answer as a promise: the memory store throws at once where a server's store rejects. */
const attempt = async <T>(f: () => T | Promise<T>): Promise<T> => f();

const pay = (payments: number[], hangs: () => boolean) =>
  defineTool({
    name: "pay",
    description: "",
    schema: z.object({ cents: z.number() }),
    handler: ({ cents }) => {
      payments.push(cents);
      return hangs() ? new Promise<HandlerResult>(() => {}) : ok("paid");
    },
  });

/**
 * What every journal store (memory, Redis, Postgres) promises the agent loop, as `it`s to call
 * inside the store's own `describe`: a restart resumes from the store, a lease keeps out a second
 * owner until it runs out, entries come back as written, a finished run is kept `retainMs`, and
 * `delete` forgets, and (`has.ttlMs`) an abandoned run is forgotten. Options and whatever only one
 * store has stay in that store's own file.
 */
export function journalStoreContract(driver: () => JournalStoreDriver, has: { readonly ttlMs: boolean }): void {
  it("a restart resumes from the store: the recorded reply keeps its ids, a call cut off mid-run is not run again", async () => {
    const { store } = driver();
    const payments: number[] = [];
    let hang = true;
    const tools = [pay(payments, () => hang)];
    const journal = { store, conversationKey: "order-1", owner: "pod-a" };
    const first = randomIdModel();
    let ids: string[] = [];
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model: first.fn, tools, messages: [{ role: "user", content: "pay" }], journal }).subscribe((e) => {
        if (e.type === "model_reply") ids = (e.message.toolCalls ?? []).map((c) => c.id);
        if (e.type === "tool_event" && e.event.type === "tool_execution_started")
          setTimeout(() => {
            subscription.unsubscribe();
            resolve();
          }, 50);
      });
    });
    hang = false;
    await new Promise((r) => setTimeout(r, 50)); // the first run lets go of its lease on unsubscribe (a crashed one would not)
    const second = randomIdModel();
    const result = await runAgent({ model: second.fn, tools, messages: [{ role: "user", content: "pay" }], journal });
    expect(result.haltedReason).toBe("completed");
    expect(second.asked).toEqual([1]);
    expect(payments).toEqual([5]);
    expect(result.messages[1]).toMatchObject({ role: "assistant", toolCalls: [{ id: ids[0] }] });
    expect(result.messages[2]).toMatchObject({ role: "tool", toolCallId: ids[0], isError: true });
    expect((await store.entries("order-1")).map((e) => e.type)).toEqual(["run", "call", "reply", "outcome", "reply", "halt"]);
  });

  it("a second owner is refused while the lease holds, takes it once it has run out, and the first can no longer write", async () => {
    const { store, unitMs: lease, elapse } = driver();
    await store.acquire("lease-1", "a", lease);
    await expect(attempt(() => store.acquire("lease-1", "b", lease))).rejects.toThrow(new JournalLeaseError("lease-1", "a").message);
    await expect(attempt(() => store.acquire("lease-1", "b", lease))).rejects.toBeInstanceOf(JournalLeaseError);
    expect(await store.acquire("lease-1", "a", lease)).toEqual([]);
    await store.append("lease-1", "a", [{ type: "run", input: "x" }]);
    await elapse(lease * 1.25);
    expect(await store.acquire("lease-1", "b", lease * 5)).toEqual([{ type: "run", input: "x" }]);
    await expect(attempt(() => store.append("lease-1", "a", [{ type: "halt", haltedReason: "x" }]))).rejects.toThrow(
      new JournalLeaseError("lease-1", "b").message,
    );
    expect(await store.renew("lease-1", "a", lease)).toBe(false);
    expect(await store.renew("lease-1", "b", lease)).toBe(true);
    await store.release("lease-1", "a", lease * 30); // not the holder: nothing happens
    await expect(attempt(() => store.acquire("lease-1", "c", lease))).rejects.toBeInstanceOf(JournalLeaseError);
  });

  it("keeps each entry's JSON as written, in order, across appends", async () => {
    const { store } = driver();
    const call = { id: "c1", name: "t", arguments: { z: 1, a: [2, { __proto__: 3, é: "ü\u2028😀" }], m: '\\"' } };
    const written: JournalEntry[] = [
      { type: "run", input: "fp" },
      { type: "call", turn: 0, phase: "model", call, text: "" },
      { type: "call", turn: 0, phase: "model", call: { ...call, id: "c2" }, text: "" },
      { type: "call", turn: 0, phase: "model", call: { ...call, id: "c3" }, text: "" },
      { type: "halt", haltedReason: "completed" },
    ];
    await store.acquire("order", "a", 10_000);
    await store.append("order", "a", written.slice(0, 1));
    await store.append("order", "a", written.slice(1, 2));
    await store.append("order", "a", []);
    // The loop's writer appends what piled up behind a slow write in one call.
    await store.append("order", "a", written.slice(2, 4));
    await store.append("order", "a", written.slice(4));
    const read = await store.acquire("order", "a", 10_000);
    expect(read).toEqual(JSON.parse(JSON.stringify(written)));
    expect(read.map((e) => JSON.stringify(e))).toEqual(written.map((e) => JSON.stringify(e)));
    expect(await store.entries("order")).toEqual(read);
  });

  it("keeps a finished run's entries `retainMs`, deletes them at once with 0, keeps them with Infinity", async () => {
    const { store, unitMs: retain, elapse, purgeExpired } = driver();
    const m = () => randomIdModel().fn;
    const tools = [pay([], () => false)];
    const messages = [{ role: "user" as const, content: "a" }];
    await runAgent({ model: m(), tools, messages, journal: { store, conversationKey: "kept", retainMs: retain } });
    await runAgent({ model: m(), tools, messages, journal: { store, conversationKey: "gone", retainMs: 0 } });
    await runAgent({ model: m(), tools, messages, journal: { store, conversationKey: "forever", retainMs: Number.POSITIVE_INFINITY } });
    const kept = (await store.entries("kept")).map((e) => e.type);
    expect([kept[0], kept.at(-1)]).toEqual(["run", "halt"]);
    expect(await store.entries("gone")).toEqual([]);
    await elapse(retain * 1.25);
    expect(await store.entries("kept")).toEqual([]);
    expect((await store.entries("forever")).length).toBeGreaterThan(0);
    // An expired journal starts afresh for the next run, once the store's sweep (if it has one) ran.
    if (purgeExpired !== undefined) expect(await purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await store.acquire("kept", "z", retain)).toEqual([]);
  });

  // The memory store keeps a held run until it is released or deleted: it has no `ttlMs`.
  if (has.ttlMs)
    it("forgets a run nobody ended after `ttlMs`", async () => {
      const { withTtl, unitMs, elapse } = driver();
      if (withTtl === undefined) throw new Error("a store with `ttlMs` gives the contract `withTtl`");
      const short = withTtl(unitMs / 2);
      await short.acquire("abandoned", "a", unitMs / 4);
      await short.append("abandoned", "a", [{ type: "run", input: "x" }]);
      await elapse(unitMs * 0.75);
      expect(await short.entries("abandoned")).toEqual([]);
      expect(await short.acquire("abandoned", "b", unitMs)).toEqual([]);
    });

  it("delete forgets a conversation now, lease and entries", async () => {
    const { store } = driver();
    await store.acquire("del", "a", 10_000);
    await store.append("del", "a", [{ type: "run", input: "x" }]);
    await store.delete("del");
    expect(await store.entries("del")).toEqual([]);
    expect(await store.acquire("del", "b", 1_000)).toEqual([]);
  });
}
