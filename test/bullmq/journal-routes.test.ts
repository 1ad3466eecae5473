import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, MemoryJournalStore, ok, runAgent, streamAgent, type ModelEvent, type ModelRequest, type Tool } from "../../src/index.js";
import { bullmqExecutor, bullmqWorker, type BullmqExecutor, type BullmqWorker } from "../../src/bullmq/index.js";
import { dyingProcess } from "../support/dying-process.js";
import { freshQueue } from "./fleet.js";
import { redisUnavailable, startRedis, type TestRedis } from "./redis.js";

/** A charge that takes a while on the worker, counted where it runs. */
const charges: number[] = [];
const onWorker: Tool = defineTool({
  name: "charge",
  description: "Charge the card",
  schema: z.object({ cents: z.number() }),
  handler: async ({ cents }) => {
    charges.push(cents);
    await new Promise((r) => setTimeout(r, 300));
    return ok(`charged ${cents}`);
  },
});
/** The agent's copy names the executor, as docs/distributed.md shows; the worker's runs the call itself. */
const charge: Tool = { ...onWorker, control: { executor: "bullmq" } };

/** A model like OpenAI's: new call ids on every request. */
const model = (request: ModelRequest): ModelEvent[] =>
  request.messages.length === 1
    ? [{ type: "tool_call", call: { id: `call_${Math.random().toString(36).slice(2)}`, name: "charge", arguments: { cents: 4200 } } }]
    : [{ type: "text_delta", text: "Charged." }];

describe.skipIf(redisUnavailable !== undefined)("a journaled BullMQ tool routed through `toolExecutors`", () => {
  let redis: TestRedis;
  let worker: BullmqWorker;
  let queue: string;
  const executors: BullmqExecutor[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    queue = freshQueue("journal-routes");
    worker = bullmqWorker({ connection: redis.url, queue, tools: [onWorker] });
    await worker.ready();
  }, 30_000);

  afterAll(async () => {
    await Promise.all(executors.map((e) => e.close()));
    await worker?.close();
    await redis?.stop();
  });

  /** One agent process's executor: its own connection, job ids keyed by the conversation. */
  const executorOf = async (key: string) => {
    const executor = bullmqExecutor({ connection: redis.url, queue, key, reconcileInterval: 200 });
    executors.push(executor);
    await executor.ready();
    return executor;
  };

  it("re-attaches a call cut off by a kill to its job, which ran once, instead of answering its fate unknown", async () => {
    const key = `routes-${Date.now()}`;
    const store = new MemoryJournalStore();
    const input = [{ role: "user" as const, content: "Charge me" }];
    const first = dyingProcess(store);
    const bullmq = await executorOf(key);
    const started = new Promise<void>((resolve) => {
      streamAgent({
        model,
        tools: [charge],
        messages: input,
        toolExecutors: { bullmq },
        journal: { store: first.store, conversationKey: key, owner: "agent" },
      }).subscribe((e) => {
        if (e.type === "tool_event" && e.event.type === "tool_execution_started") resolve();
      });
    });
    await started;
    // The process dies while the job runs on the worker; nothing of it is heard again.
    first.kill();
    const again = await runAgent({
      model,
      tools: [charge],
      messages: input,
      toolExecutors: { bullmq: await executorOf(key) },
      journal: { store, conversationKey: key, owner: "agent" },
    });
    expect(again.haltedReason).toBe("completed");
    expect(again.messages[2]).toMatchObject({ role: "tool", name: "charge", content: "charged 4200", isError: false });
    expect(charges).toEqual([4200]);
  }, 30_000);
});
