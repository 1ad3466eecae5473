// serveTools with its tools on toolrx/bullmq and its tasks written down in Redis: the server
// process killed (SIGKILL) mid-task and started again serves the same task id, whose call follows
// the same job to its result. The worker (in this process) counts the tool's runs.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type ToolCall } from "../../../src/index.js";
import { type BullmqWorker, bullmqWorker } from "../../../src/bullmq/index.js";
import { mcpReattachCall, mcpTools } from "../../../src/mcp/index.js";
import { freePort, redisUnavailable, startRedis, type TestRedis } from "../../bullmq/redis.js";
import { deferred } from "./task-servers.js";

const fixture = fileURLToPath(new URL("./task-bullmq-server.ts", import.meta.url));

describe.skipIf(redisUnavailable !== undefined)("serveTools tasks on BullMQ, the server restarted mid-task", () => {
  let redis: TestRedis;
  let worker: BullmqWorker;
  let runs = 0;
  const gate = deferred();
  const queue = `mcp-tasks-${process.pid}-${Date.now().toString(36)}`;
  const job = defineTool({
    name: "job",
    description: "",
    schema: { type: "object", properties: {} } as const,
    handler: async (_args, ctx) => {
      runs++;
      ctx.progress({ progress: 1, message: "started on the worker" });
      await gate.promise;
      return ok(`finished after ${runs} run(s)`);
    },
  });

  beforeAll(async () => {
    redis = await startRedis();
    worker = bullmqWorker({ connection: redis.url, queue, tools: [job] });
  });
  afterAll(async () => {
    gate.resolve();
    await worker?.close();
    await redis?.stop();
  });

  /** Start the server fixture on `port`; resolves once it listens. */
  function server(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", fixture, redis.url, queue, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    return new Promise((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve(child));
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
  }

  async function connect(url: string): Promise<Client> {
    const client = new Client({ name: "c", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  }

  it("serves the same task id after the restart: the client follows it to its result, the tool ran once", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const first = await server(port);
    const client = await connect(url);
    const started = (await client.request({ method: "tools/call", params: { name: "job", arguments: {}, task: {} } }, z.looseObject({}))) as {
      task: { taskId: string };
    };
    const { taskId } = started.task;
    // The job is running on the worker: its status came back through the server.
    for (let i = 0; runs === 0 && i < 600; i++) await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(1);
    await client.close();
    const killed = new Promise((resolve) => first.once("exit", resolve));
    first.kill("SIGKILL");
    await killed;

    const second = await server(port);
    try {
      const again = await connect(url);
      const tools = await mcpTools(again, { tasks: { maxPollInterval: 50 } });
      const call: ToolCall = { id: "c1", name: "job", arguments: {} };
      setTimeout(() => gate.resolve(), 500);
      const { messages } = await runToolCalls([mcpReattachCall(call, taskId)], tools, { toolTimeout: 60_000 });
      expect(messages[0]).toMatchObject({ isError: false });
      expect(messages[0]?.content).toContain("finished after 1 run(s)");
      expect(runs).toBe(1);
      await again.close();
    } finally {
      second.kill("SIGKILL");
    }
  }, 120_000);
});
