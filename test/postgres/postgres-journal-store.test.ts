import { PGlite } from "@electric-sql/pglite";
import { Observable } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ModelEvent, type ModelRequest, ok, runAgent } from "../../src/index.js";
import { PostgresApprovalLedger, PostgresJournalStore } from "../../src/postgres/index.js";
import { journalStoreContract } from "../support/journal-store-contract.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

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

  // The contract every journal store keeps (test/support/journal-store-contract.ts), on PGlite:
  // leases and retention in seconds, wide of a loaded 2-core machine's pauses.
  journalStoreContract(
    () => ({
      store,
      unitMs: 2_000,
      elapse: sleep,
      withTtl: (ttlMs) => new PostgresJournalStore(db, { ttlMs }),
      purgeExpired: () => store.purgeExpired(),
    }),
    { ttlMs: true },
  );

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
