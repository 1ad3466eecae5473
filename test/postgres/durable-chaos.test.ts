import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approve, type Message, type PendingApproval } from "../../src/index.js";
import { PostgresApprovalLedger, PostgresJournalStore } from "../../src/postgres/index.js";
import { anthropic, checkConversation, openai } from "../../src/providers/index.js";
import type { PgKillPoint, PgPlannedCall, PgSetup } from "./fixtures/pg-chaos-agent.js";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./postgres-server.js";

const fixture = fileURLToPath(new URL("./fixtures/pg-chaos-agent.ts", import.meta.url));
/** Scenarios per run: each starts the agent process 2 to 6 times (tsx and pg load in seconds on a loaded 2-core machine). */
const RUNS = 3;

const call = fc.record({ kind: fc.constantFrom<PgPlannedCall["kind"]>("local", "idempotent", "ask", "approve") });
const scenario = fc.record({
  plan: fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
  kills: fc.array(fc.record({ point: fc.constantFrom<PgKillPoint>("streaming", "reply", "tool", "outcome", "halt"), nth: fc.integer({ min: 0, max: 2 }) }), {
    minLength: 1,
    maxLength: 2,
  }),
});

function run(setup: PgSetup): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", fixture, JSON.stringify(setup)], { stdio: ["ignore", "inherit", "inherit"] });
}

// The same property as test/bullmq/durable-chaos.test.ts, with the journal and the approval
// ledger in a real Postgres server and the agent process SIGKILLed anywhere.
describe.skipIf(postgresUnavailable !== undefined)("a durable agent on Postgres, SIGKILLed anywhere", () => {
  let server: TestPostgres;
  let dir: string;
  let effects: string;
  let scenarios = 0;
  let starts = 0;
  let kills = 0;
  let nextN = 0;

  beforeAll(async () => {
    server = await startPostgres();
    const pool = new pg.Pool({ connectionString: server.url });
    await new PostgresJournalStore(pool).createTables();
    await new PostgresApprovalLedger(pool).createTable();
    await pool.end();
    dir = mkdtempSync(join(tmpdir(), "toolrx-pg-chaos-"));
    effects = join(dir, "effects.log");
    appendFileSync(effects, "");
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    console.log(`durable chaos on Postgres: ${scenarios} scenarios, ${starts} agent processes started, ${kills} SIGKILLed`);
  });

  it("runs every effect at most once, answers every call once, keeps the conversation valid, and never asks a recorded turn again", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ plan: kinds, kills: killList }) => {
        scenarios++;
        nextN += 100;
        let n = nextN;
        const plan = kinds.map((turn) => turn.map((c) => ({ ...c, n: n++ })));
        const key = `pg-chaos-${scenarios}-${Date.now()}`;
        const violations = join(dir, `${key}.violations`);
        const out = join(dir, `${key}.json`);
        const pending = killList.slice();
        let messages: Message[] = [{ role: "user", content: "go" }];
        let result: { haltedReason: string; metadata: Record<string, unknown>; messages: Message[] } | undefined;
        for (let life = 0; life < 20; life++) {
          const kill = pending.shift() ?? null;
          starts++;
          const child = run({ url: server.url, key, effects, plan, messages, kill, out, violations });
          const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once("exit", (c, s) => resolve([c, s])));
          if (signal === "SIGKILL") {
            kills++;
            continue;
          }
          expect(code).toBe(0);
          result = JSON.parse(readFileSync(out, "utf8"));
          rmSync(out);
          if (result?.haltedReason === "ask_user") messages = [...result.messages, { role: "user", content: "yes" }];
          else if (result?.haltedReason === "approval_required")
            messages = [...result.messages, ...(result.metadata.pendingApprovals as PendingApproval[]).map((p) => approve(p))];
          else break;
        }
        expect(result?.haltedReason, JSON.stringify(result?.metadata)).toBe("completed");
        const final = result?.messages ?? [];
        expect(final.at(-1)).toEqual({ role: "assistant", content: `done after ${plan.length} turns` });
        const lines = readFileSync(effects, "utf8").split("\n");
        for (const c of plan.flat()) {
          const ran = lines.filter((l) => l === `${c.kind} ${c.n}`).length;
          if (c.kind !== "idempotent") expect(ran, `${c.kind} ${c.n}`).toBeLessThanOrEqual(1);
        }
        const ids = final.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []));
        const answers = final.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
        expect(answers.slice().sort()).toEqual(ids.slice().sort());
        expect(checkConversation(openai.toChatMessages(final), "openai-chat")).toEqual([]);
        expect(checkConversation(openai.toResponsesInput(final), "openai-responses")).toEqual([]);
        expect(checkConversation(anthropic.toMessages(final).messages, "anthropic")).toEqual([]);
        expect(existsSync(violations) ? readFileSync(violations, "utf8") : "").toBe("");
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
