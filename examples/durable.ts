/**
 * A durable agent: kill its process mid-turn, start it again, and nothing runs twice.
 *
 * Redis (our own `redis-server` on a free port, or REDIS_URL), one BullMQ worker process, and an
 * agent process (this file, run with `agent`) whose scripted model (no API key, no network) gives
 * its calls random ids on every request, as OpenAI does. Turn 0 asks for two calls at once:
 * `charge` runs in the agent's own process, `ship` on the worker. While both run, the agent
 * process is SIGKILLed. Started again on the same conversation key, it resumes from the journal:
 * the model is not asked for turn 0 again (its reply is replayed, original call ids and all),
 * `ship` re-attaches to its job on the worker, and `charge`, whose fate died with the process,
 * is answered `handler_exit` with `fate: "unknown"` instead of charging the card twice.
 *
 * Run: npm run example:durable   (needs `redis-server` on PATH, or REDIS_URL)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Observable } from "rxjs";
import { z } from "zod";
import { defaultExecutor, defineTool, ok, runAgent, type HandlerContext, type ModelEvent, type ModelRequest, type Tool } from "../src/index.js";
import { bullmqExecutor, bullmqWorker, RedisJournalStore } from "../src/bullmq/index.js";

const queue = "toolrx-durable-example";
const conversationKey = "order-1042";

/** Each tool writes its side effect to a file, so the parent can count them across processes. */
const effect = (file: string, what: string) => appendFileSync(file, `${what}\n`);

const tools = (effects: string) => [
  defineTool({
    name: "charge",
    description: "Charge the customer's card",
    schema: z.object({ cents: z.number() }),
    handler: async ({ cents }) => {
      effect(effects, `charge ${cents}`);
      await new Promise((r) => setTimeout(r, 1_000));
      return ok("charged");
    },
  }),
  defineTool({
    name: "ship",
    description: "Ship the order",
    schema: z.object({ sku: z.string() }),
    handler: async ({ sku }) => {
      await new Promise((r) => setTimeout(r, 1_000));
      effect(effects, `ship ${sku}`);
      return ok(`shipped ${sku}`);
    },
  }),
];

/** Turn k of the script, by the assistant messages so far; ids are random per request. */
function model(request: ModelRequest) {
  return new Observable<ModelEvent>((subscriber) => {
    const k = request.messages.filter((m) => m.role === "assistant").length;
    process.stdout.write(`agent: the model is asked for turn ${k}\n`);
    const id = () => `call_${Math.random().toString(36).slice(2, 10)}`;
    if (k === 0) {
      subscriber.next({ type: "text_delta", text: "Charging and shipping." });
      subscriber.next({ type: "tool_call", call: { id: id(), name: "charge", arguments: { cents: 4_200 } } });
      subscriber.next({ type: "tool_call", call: { id: id(), name: "ship", arguments: { sku: "kayak-7" } } });
    } else subscriber.next({ type: "text_delta", text: "Order 1042 is on its way; I will check the charge." });
    subscriber.complete();
  });
}

const [mode, url, effects] = process.argv.slice(2) as [string | undefined, string, string];
if (mode === "worker") {
  const worker = bullmqWorker({ connection: url, queue, tools: tools(effects) });
  await worker.ready();
  process.stdout.write("ready\n");
  process.on("SIGTERM", () => void worker.close().then(() => process.exit(0)));
} else if (mode === "agent") {
  await agent();
} else {
  await main();
}

/** The agent process: the same code whether it starts fresh or after a crash. */
async function agent(): Promise<void> {
  const store = new RedisJournalStore(url);
  // Job ids derive from the conversation key and the call id: the replayed reply's ids find the old jobs.
  const executor = bullmqExecutor({ connection: url, queue, key: conversationKey, reconcileInterval: 500 });
  // `charge` runs here, `ship` on the worker.
  // A call cut off on the worker is sent again (it re-attaches to its job); one cut off here is not.
  const toolExecutor = {
    reattaches: (tool: Tool) => tool.name === "ship",
    execute: (tool: Tool, args: Record<string, unknown>, ctx: HandlerContext) =>
      tool.name === "ship" ? executor.execute(tool, args, ctx) : defaultExecutor.execute(tool, args, ctx),
  };
  try {
    const result = await runAgent({
      model,
      tools: tools(effects),
      messages: [{ role: "user", content: "Charge and ship order 1042" }],
      toolExecutor,
      // The owner stays the same across restarts, so the restarted process takes its lease back at once.
      journal: { store, conversationKey, owner: "agent-process" },
    });
    for (const m of result.messages) if (m.role === "tool") process.stdout.write(`agent: ${m.name} answered ${m.content}\n`);
    const last = result.messages.at(-1);
    process.stdout.write(`agent: ${result.haltedReason}: ${last?.role === "assistant" ? last.content : ""}\n`);
    if (result.haltedReason !== "completed") process.exitCode = 1;
  } finally {
    // Open connections would keep a failed agent process alive: close them whatever happened.
    await Promise.allSettled([executor.close(), store.close()]);
  }
}

async function main(): Promise<void> {
  let redis: ChildProcess | undefined;
  let redisUrl = process.env.REDIS_URL;
  if (redisUrl === undefined) {
    const port = await freePort();
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    redis.on("error", () => {
      console.error("example: no redis-server on PATH; install it (apt-get install redis-server) or set REDIS_URL");
      process.exit(1);
    });
    redisUrl = `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  const dir = mkdtempSync(join(tmpdir(), "toolrx-durable-"));
  const effectsFile = join(dir, "effects.log");
  appendFileSync(effectsFile, "");
  const here = fileURLToPath(import.meta.url);
  const children: ChildProcess[] = [];
  const start = (role: string) => {
    const child = spawn(process.execPath, ["--import", "tsx", here, role, redisUrl as string, effectsFile], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    return child;
  };
  try {
    const worker = start("worker");
    await Promise.race([
      new Promise((resolve) => worker.stdout?.once("data", resolve)),
      exitOf(worker).then((code) => {
        throw new Error(`example: the worker exited with ${code} before it was ready`);
      }),
    ]);
    // First life: SIGKILL the agent process once both calls are running.
    const first = start("agent");
    first.stdout?.on("data", (d: Buffer) => process.stdout.write(d));
    await waitFor(() => readFileSync(effectsFile, "utf8").includes("charge"));
    await new Promise((r) => setTimeout(r, 200));
    first.kill("SIGKILL");
    await exitOf(first);
    console.log("example: the agent process was SIGKILLed while charge and ship ran");
    // Second life: the same program, the same conversation key.
    const second = start("agent");
    second.stdout?.on("data", (d: Buffer) => process.stdout.write(d));
    const code = await exitOf(second);
    if (code !== 0) throw new Error(`example: the restarted agent exited with ${code}`);
    const done = readFileSync(effectsFile, "utf8").trim().split("\n");
    const counts = new Map<string, number>();
    for (const line of done) counts.set(line, (counts.get(line) ?? 0) + 1);
    for (const [what, n] of counts) console.log(`example: ${what} happened ${n === 1 ? "once" : `${n} times`}`);
    if ([...counts.values()].some((n) => n !== 1) || counts.size !== 2) throw new Error("example: a side effect did not happen exactly once");
  } finally {
    // Whatever failed, no process of the example outlives it: the worker closes, any agent still running is killed.
    await Promise.all(children.map((child) => stop(child)));
    redis?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

function exitOf(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
}

/** SIGTERM (the worker closes its queue), then SIGKILL if it has not exited within 5 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitOf(child);
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

async function waitFor(condition: () => boolean): Promise<void> {
  const until = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > until) throw new Error("example: timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
