import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { appendFileSync } from "node:fs";
import { defineTool, MemoryJournalStore, memoryApprovalLedger, ok } from "../../../src/index.js";
import { codeMode, type CodeMode } from "../../../src/code-mode/index.js";
import { workerPool, type WorkerPool } from "../../../src/node/index.js";
import { runSeamScenario, type SeamKind, type SeamStats, type SeamWorld } from "../../support/seam-harness.js";
import { seamScenario } from "../../support/seam-scenario.js";

/** Scenarios per run: each is a few lives of a few ms in memory, a thread call a few ms more. */
const RUNS = 300;

describe("the seam property, in memory: approvals × journal × executors, killed at every step", () => {
  let dir: string;
  let pool: WorkerPool;
  let code: CodeMode;
  /** The scenario's effects file, for the tool a code-mode script calls (its handler runs here). */
  let effects = "";
  const stats: SeamStats = { scenarios: 0, lives: 0, kills: 0, byStep: {}, tokenExpired: 0 };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrx-seams-"));
    pool = workerPool({ size: 1, spares: 0 });
    const nested = defineTool({
      name: "code",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: ({ n }) => {
        appendFileSync(effects, `code ${n}\n`);
        return ok(n);
      },
    });
    code = codeMode({ tools: [nested] });
  });

  afterAll(async () => {
    await Promise.allSettled([pool?.close(), code?.close()]);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    console.log(
      `seam property (memory): ${stats.scenarios} scenarios, ${stats.lives} lives, ${stats.kills} kills ${JSON.stringify(stats.byStep)}, ${stats.tokenExpired} token_expired refusals`,
    );
  });

  it("runs no non-idempotent handler twice, answers every call once, keeps the conversation valid for every provider, and ends as an uninterrupted run", async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(seamScenario(["local", "idempotent", "approve", "ask", "repair", "thread", "code"] satisfies SeamKind[]), async (scenario) => {
        effects = join(dir, `effects-${k}.log`);
        writeFileSync(effects, "");
        const thread = pool.tool({
          name: "thread",
          description: "",
          schema: z.object({ n: z.number() }).loose(),
          module: new URL("./fixtures/seam-handlers.mjs", import.meta.url),
          export: "effect",
          control: { executor: "thread" },
          // Where the thread writes its effect: put in by a hook, as a host would add a tenant.
          hooks: [{ before: (args) => ({ arguments: { ...args, file: effects } }) }],
        });
        const world: SeamWorld = {
          store: new MemoryJournalStore(),
          ledger: memoryApprovalLedger(),
          effects,
          tools: [thread, code.tool],
          executors: () => ({ toolExecutors: { thread: pool } }),
          unsubscribeDead: true,
        };
        await runSeamScenario(world, scenario, `seam-${k++}`, stats);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
