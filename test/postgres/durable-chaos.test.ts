import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { ChaosTally } from "../support/chaos-lives.js";
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
  const tally = new ChaosTally();

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
    console.log(`durable chaos on Postgres: ${tally}`);
  });

  it("runs every effect at most once, answers every call once, keeps the conversation valid, and never asks a recorded turn again", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, ({ plan, kills }) =>
        tally.scenario({ dir, effects, prefix: "pg-chaos" }, plan, kills, ({ key, out, violations, plan }, messages, kill) =>
          run({ url: server.url, key, effects, plan, messages, kill, out, violations }),
        ),
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});
