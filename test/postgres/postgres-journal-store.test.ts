import { PGlite } from "@electric-sql/pglite";
import { Observable } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  type HandlerResult,
  type JournalEntry,
  JournalLeaseError,
  type ModelEvent,
  type ModelRequest,
  ok,
  runAgent,
  streamAgent,
} from "../../src/index.js";
import { PostgresApprovalLedger, PostgresJournalStore } from "../../src/postgres/index.js";
import { randomIdModel } from "../support/random-id-model.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("PostgresJournalStore (PGlite)", () => {
  let db: PGlite;
  let store: PostgresJournalStore;
  beforeAll(async () => {
    db = new PGlite();
    store = new PostgresJournalStore(db);
    await store.createTables();
    await store.createTables(); // twice: it is idempotent
  }, 120_000); // PGlite compiles Postgres to WebAssembly and runs initdb: seconds on a busy machine
  afterAll(async () => {
    await db?.close();
  });

  it("a restart resumes from Postgres: the recorded reply keeps its ids, a call cut off mid-run is not run again", async () => {
    const payments: number[] = [];
    let hang = true;
    const pay = defineTool({
      name: "pay",
      description: "",
      schema: z.object({ cents: z.number() }),
      handler: ({ cents }) => {
        payments.push(cents);
        return hang ? new Promise<HandlerResult>(() => {}) : ok("paid");
      },
    });
    const journal = { store, conversationKey: "order-1", owner: "pod-a" };
    const first = randomIdModel();
    let ids: string[] = [];
    await new Promise<void>((resolve) => {
      const subscription = streamAgent({ model: first.fn, tools: [pay], messages: [{ role: "user", content: "pay" }], journal }).subscribe((e) => {
        if (e.type === "model_reply") ids = (e.message.toolCalls ?? []).map((c) => c.id);
        if (e.type === "tool_event" && e.event.type === "tool_execution_started")
          setTimeout(() => {
            subscription.unsubscribe();
            resolve();
          }, 50);
      });
    });
    hang = false;
    const second = randomIdModel();
    const result = await runAgent({ model: second.fn, tools: [pay], messages: [{ role: "user", content: "pay" }], journal });
    expect(result.haltedReason).toBe("completed");
    expect(second.asked).toEqual([1]);
    expect(payments).toEqual([5]);
    expect(result.messages[1]).toMatchObject({ role: "assistant", toolCalls: [{ id: ids[0] }] });
    expect(result.messages[2]).toMatchObject({ role: "tool", toolCallId: ids[0], isError: true });
    expect((await store.entries("order-1")).map((e) => e.type)).toEqual(["run", "call", "reply", "outcome", "reply", "halt"]);
  });

  it("a second owner is refused while the lease holds, takes it once it has run out, and the first can no longer write", async () => {
    // Margins in seconds: a loaded 2-core machine pauses for hundreds of ms between two awaits.
    await store.acquire("lease-1", "a", 2_000);
    await expect(store.acquire("lease-1", "b", 2_000)).rejects.toThrow(new JournalLeaseError("lease-1", "a").message);
    await expect(store.acquire("lease-1", "a", 2_000)).resolves.toEqual([]);
    await store.append("lease-1", "a", [{ type: "run", input: "x" }]);
    await sleep(2_500);
    await expect(store.acquire("lease-1", "b", 10_000)).resolves.toEqual([{ type: "run", input: "x" }]);
    await expect(store.append("lease-1", "a", [{ type: "halt", haltedReason: "x" }])).rejects.toThrow(new JournalLeaseError("lease-1", "b").message);
    expect(await store.renew("lease-1", "a", 1_000)).toBe(false);
    expect(await store.renew("lease-1", "b", 1_000)).toBe(true);
    await store.release("lease-1", "a", 60_000); // not the holder: nothing happens
    await expect(store.acquire("lease-1", "c", 1_000)).rejects.toBeInstanceOf(JournalLeaseError);
  });

  it("keeps each entry's JSON as written, in order, across appends", async () => {
    const call = { id: "c1", name: "t", arguments: { z: 1, a: [2, { __proto__: 3, é: "ü\u2028😀" }], m: '\\"' } };
    const written: JournalEntry[] = [
      { type: "run", input: "fp" },
      { type: "call", turn: 0, phase: "model", call, text: "" },
    ];
    await store.acquire("order", "a", 10_000);
    await store.append("order", "a", written.slice(0, 1));
    await store.append("order", "a", written.slice(1));
    await store.append("order", "a", []);
    const read = await store.acquire("order", "a", 10_000);
    expect(read).toEqual(JSON.parse(JSON.stringify(written)));
    expect(read.map((e) => JSON.stringify(e))).toEqual(written.map((e) => JSON.stringify(e)));
  });

  it("keeps a finished run's entries `retainMs`, deletes them at once with 0, keeps them with Infinity", async () => {
    const m = () => randomIdModel().fn;
    const tools = [defineTool({ name: "pay", description: "", schema: z.object({ cents: z.number() }), handler: () => ok("paid") })];
    const messages = [{ role: "user" as const, content: "a" }];
    await runAgent({ model: m(), tools, messages, journal: { store, conversationKey: "kept", retainMs: 2_000 } });
    await runAgent({ model: m(), tools, messages, journal: { store, conversationKey: "gone", retainMs: 0 } });
    await runAgent({ model: m(), tools, messages, journal: { store, conversationKey: "forever", retainMs: Number.POSITIVE_INFINITY } });
    expect((await store.entries("kept")).length).toBeGreaterThan(0);
    expect(await store.entries("gone")).toEqual([]);
    await sleep(2_500);
    expect(await store.entries("kept")).toEqual([]);
    expect((await store.entries("forever")).length).toBeGreaterThan(0);
    // An expired journal starts afresh for the next run, and purgeExpired clears it from the tables.
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
    await expect(store.acquire("kept", "z", 1_000)).resolves.toEqual([]);
  });

  it("forgets a run nobody ended after `ttlMs`", async () => {
    const short = new PostgresJournalStore(db, { ttlMs: 1_000 });
    await short.acquire("abandoned", "a", 500);
    await short.append("abandoned", "a", [{ type: "run", input: "x" }]);
    await sleep(1_500);
    expect(await short.entries("abandoned")).toEqual([]);
    await expect(short.acquire("abandoned", "b", 1_000)).resolves.toEqual([]);
  });

  it("delete forgets a conversation now", async () => {
    await store.acquire("del", "a", 10_000);
    await store.append("del", "a", [{ type: "run", input: "x" }]);
    await store.delete("del");
    expect(await store.entries("del")).toEqual([]);
    await expect(store.acquire("del", "b", 1_000)).resolves.toEqual([]);
  });

  it("checks its options", () => {
    expect(() => new PostgresJournalStore({} as never)).toThrow(/pg Pool or Client, or PGlite/);
    expect(() => new PostgresJournalStore(db, { table: "x; DROP TABLE y" })).toThrow(/`table`/);
    expect(() => new PostgresJournalStore(db, { ttlMs: 0 })).toThrow(/`ttlMs`/);
    expect(() => new PostgresJournalStore(db, { table: "app.journal" })).not.toThrow();
  });
});

describe("PostgresApprovalLedger (PGlite)", () => {
  let db: PGlite;
  let ledger: PostgresApprovalLedger;
  beforeAll(async () => {
    db = new PGlite();
    ledger = new PostgresApprovalLedger(db);
    await ledger.createTable();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("answers true the first time it sees a key, false ever after, whatever the order of concurrent asks", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => ledger.consume("conv-7/call_1")));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await ledger.consume("conv-7/call_1")).toBe(false);
    expect(await ledger.consume("conv-7/call_2")).toBe(true);
  });

  it("forgets a key after its ttl, and purgeExpired deletes it", async () => {
    expect(await ledger.consume("short", 1_000)).toBe(true);
    expect(await ledger.consume("short", 1_000)).toBe(false);
    await sleep(1_500);
    expect(await ledger.purgeExpired()).toBe(1);
    expect(await ledger.consume("short", 1_000)).toBe(true);
  });

  it("spends an approval once through the agent loop: a replayed request fails closed with already_used", async () => {
    const runs: string[] = [];
    const counted = defineTool({
      name: "refund",
      description: "",
      schema: z.object({ order: z.string() }),
      needsApproval: true,
      handler: ({ order }) => {
        runs.push(order);
        return ok(order);
      },
    });
    const turn = (request: ModelRequest) =>
      new Observable<ModelEvent>((s) => {
        if (request.messages.some((m) => m.role === "tool")) s.next({ type: "text_delta", text: "done" });
        else s.next({ type: "tool_call", call: { id: "r1", name: "refund", arguments: { order: "A-1" } } });
        s.complete();
      });
    const server = { model: turn, tools: [counted], approvalSecret: "s", approvalLedger: ledger, sessionId: "chat-9" };
    const held = await runAgent({ ...server, messages: [{ role: "user", content: "refund" }] });
    if (held.haltedReason !== "approval_required") throw new Error(held.haltedReason);
    const { approve } = await import("../../src/index.js");
    const decided = [...held.messages, ...held.metadata.pendingApprovals.map((p) => approve(p))];
    expect((await runAgent({ ...server, messages: decided })).haltedReason).toBe("completed");
    const replay = await runAgent({ ...server, messages: decided });
    expect(replay.haltedReason).toBe("error");
    expect(runs).toEqual(["A-1"]);
  });

  it("checks its options", () => {
    expect(() => new PostgresApprovalLedger(null as never)).toThrow(/pg Pool or Client, or PGlite/);
    expect(() => new PostgresApprovalLedger(db, { table: "1x" })).toThrow(/`table`/);
    expect(() => new PostgresApprovalLedger(db, { ttlMs: -1 })).toThrow(/`ttlMs`/);
  });
});
