/**
 * Tool calls on a worker fleet: Redis (our own `redis-server` on a free port, or REDIS_URL), two
 * worker processes (this file, run with `worker`), and an agent whose tools run on them through
 * BullMQ. The model is scripted (no API key, no network): it asks for five forecasts at once,
 * then answers. Each tool message says which worker ran the call.
 *
 * Run: npm run example:distributed   (needs `redis-server` on PATH, or REDIS_URL)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineTool, ok, runAgent, type ModelEvent } from "../src/index.js";
import { bullmqExecutor, bullmqWorker } from "../src/bullmq/index.js";
import { scriptedModel } from "../src/testing/index.js";

const queue = "toolrx-example";

/** The tool both sides know: the agent needs its schema, the workers its handler. */
const forecast = (worker: string) =>
  defineTool({
    name: "forecast",
    description: "Tomorrow's forecast for a city",
    schema: z.object({ city: z.string() }),
    handler: async ({ city }) => {
      await new Promise((r) => setTimeout(r, 100));
      return ok({ city, tempC: 10 + city.length, worker, pid: process.pid });
    },
  });

if (process.argv[2] === "worker") {
  const [, , , url, name] = process.argv;
  const worker = bullmqWorker({ connection: url as string, queue, tools: [forecast(name as string)], concurrency: 2, name });
  await worker.ready();
  process.stdout.write("ready\n");
  process.on("SIGTERM", () => void worker.close().then(() => process.exit(0)));
} else {
  await main();
}

async function main(): Promise<void> {
  let redis: ChildProcess | undefined;
  let url = process.env.REDIS_URL;
  if (url === undefined) {
    const port = await freePort();
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    redis.on("error", () => {
      console.error("example: no redis-server on PATH; install it (apt-get install redis-server) or set REDIS_URL");
      process.exit(1);
    });
    url = `redis://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  const here = fileURLToPath(import.meta.url);
  const workers = await Promise.all(
    ["worker-a", "worker-b"].map(
      (name) =>
        new Promise<ChildProcess>((resolve, reject) => {
          const child = spawn(process.execPath, ["--import", "tsx", here, "worker", url as string, name], { stdio: ["ignore", "pipe", "inherit"] });
          child.stdout?.once("data", () => resolve(child));
          child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
        }),
    ),
  );
  const executor = bullmqExecutor({ connection: url, queue, key: `conversation-${Date.now()}` });
  try {
    const cities = ["Oslo", "Lima", "Hanoi", "Nairobi", "Reykjavik"];
    const calls: ModelEvent[] = cities.map((city, i) => ({ type: "tool_call", call: { id: `call_${i}`, name: "forecast", arguments: { city } } }));
    const model = scriptedModel([
      [...calls, { type: "finish", reason: "tool_calls" }],
      [
        { type: "text_delta", text: "Five forecasts are in." },
        { type: "finish", reason: "stop" },
      ],
    ]);
    const result = await runAgent({
      model,
      tools: [forecast("declared on the agent; runs on a worker")],
      messages: [{ role: "user", content: "Forecasts for five cities?" }],
      toolExecutor: executor,
      toolTimeout: 10_000,
    });
    for (const m of result.messages) {
      if (m.role === "tool") {
        const { city, worker, pid } = JSON.parse(m.content) as { city: string; worker: string; pid: number };
        console.log(`${m.toolCallId}  ${city.padEnd(10)} ran on ${worker} (pid ${pid})`);
      }
    }
    console.log(`agent: ${result.haltedReason}`);
    const ran = new Set(
      result.messages.filter((m) => m.role === "tool").map((m) => (JSON.parse((m as { content: string }).content) as { worker: string }).worker),
    );
    if (result.haltedReason !== "completed" || ran.size === 0) throw new Error("example: the calls did not run on the workers");
  } finally {
    await executor.close();
    for (const w of workers) w.kill("SIGTERM");
    redis?.kill("SIGKILL");
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
