import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { defaultExecutor, defineTool, ok, type HandlerContext, type Tool } from "../../src/index.js";
import { bullmqExecutor, bullmqWorker, RedisApprovalLedger, RedisJournalStore, type BullmqExecutor, type BullmqWorker } from "../../src/bullmq/index.js";
import { runSeamScenario, type SeamKind, type SeamStats, type SeamWorld } from "../support/seam-harness.js";
import { seamScenario } from "../support/seam-scenario.js";
import { freshQueue } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";

/**
 * Scenarios per run: each starts an executor (two Redis connections) per life and sends its
 * remote calls through a worker, some tens of ms each on a loaded machine.
 */
const RUNS = 40;

/** Where the worker's handlers write their effects: the scenario's file (the worker runs in this process). */
let effects = "";
const remoteTool = (name: string): Tool =>
  defineTool({
    name,
    description: "",
    schema: z.object({ n: z.number() }),
    handler: async ({ n }) => {
      appendFileSync(effects, `${name} ${n}\n`);
      await new Promise((r) => setTimeout(r, 20));
      return ok(`${name} ${n} done`);
    },
  });

describe.skipIf(redisUnavailable !== undefined)("the seam property on Redis: the journal, the ledger and BullMQ, killed at every step", () => {
  let redis: TestRedis;
  let worker: BullmqWorker;
  let queue: string;
  let dir: string;
  let store: RedisJournalStore;
  let ledger: RedisApprovalLedger;
  const stats: SeamStats = { scenarios: 0, lives: 0, kills: 0, byStep: {}, tokenExpired: 0 };

  beforeAll(async () => {
    redis = await startRedis();
    queue = freshQueue("seams");
    dir = mkdtempSync(join(tmpdir(), "toolrx-seams-redis-"));
    worker = bullmqWorker({ connection: redis.url, queue, tools: [remoteTool("remote"), remoteTool("routed")], concurrency: 8 });
    store = new RedisJournalStore(redis.url);
    ledger = new RedisApprovalLedger(redis.url);
    await worker.ready();
  }, 30_000);

  afterAll(async () => {
    await Promise.allSettled([worker?.close(), store?.close(), ledger?.close()]);
    await redis?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    console.log(
      `seam property (Redis): ${stats.scenarios} scenarios, ${stats.lives} lives, ${stats.kills} kills ${JSON.stringify(stats.byStep)}, ${stats.tokenExpired} token_expired refusals`,
    );
  });

  it("runs no non-idempotent handler twice, re-attaches BullMQ calls through toolExecutor and toolExecutors, and ends as an uninterrupted run", async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(seamScenario(["local", "approve", "ask", "idempotent", "remote", "routed"] satisfies SeamKind[]), async (scenario) => {
        const key = `seam-${Date.now()}-${k++}`;
        effects = join(dir, `${key}.log`);
        writeFileSync(effects, "");
        // One executor per life, as each agent process opens its own; closed once the scenario ends.
        const executors: BullmqExecutor[] = [];
        const world: SeamWorld = {
          store,
          ledger,
          effects,
          // `remote` goes through a router as `toolExecutor`, `routed` through `toolExecutors` by its `control.executor`.
          tools: [remoteTool("remote"), { ...remoteTool("routed"), control: { executor: "bullmq" } }],
          executors: (conversationKey) => {
            const bullmq = bullmqExecutor({ connection: redis.url, queue, key: conversationKey, reconcileInterval: 200 });
            executors.push(bullmq);
            return {
              toolExecutor: {
                reattaches: (tool: Tool) => tool.name === "remote",
                execute: (tool: Tool, args: Record<string, unknown>, ctx: HandlerContext) =>
                  tool.name === "remote" ? bullmq.execute(tool, args, ctx) : defaultExecutor.execute(tool, args, ctx),
              },
              toolExecutors: { bullmq },
            };
          },
          // A killed process sends no cancel to the worker: its run is left as it was.
          unsubscribeDead: false,
        };
        try {
          await runSeamScenario(world, scenario, key, stats);
        } finally {
          await Promise.allSettled(executors.map((e) => e.close()));
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
