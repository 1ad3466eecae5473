import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { expectDurablePromises, liveUntilEnd } from "../support/chaos-lives.js";
import { PostgresApprovalLedger, PostgresJournalStore } from "../../src/postgres/index.js";
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
        const counts = { starts: 0, kills: 0 };
        const result = await liveUntilEnd(
          (messages, kill) => run({ url: server.url, key, effects, plan, messages, kill, out, violations }),
          killList,
          out,
          counts,
        );
        starts += counts.starts;
        kills += counts.kills;
        const lines = readFileSync(effects, "utf8").split("\n");
        expectDurablePromises(result, plan, (c) => lines.filter((l) => l === `${c.kind} ${c.n}`).length, violations);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
