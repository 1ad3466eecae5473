// An MCP server process for tasks-bullmq.test.ts: `tsx task-bullmq-server.ts <redis url> <queue> <port>`.
// It serves the task tool `job` over stateless Streamable HTTP; the tool runs on BullMQ workers
// (bullmqExecutor with a fixed key) and every task is written down in Redis (tasks.records), so a
// process started again on the same port serves the same tasks. Prints `ready` once listening.
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Redis } from "ioredis";
import { defineTool, error, ToolError } from "../../../src/index.js";
import { bullmqExecutor } from "../../../src/bullmq/index.js";
import { type McpTaskRecords, McpTaskStore, serveTools } from "../../../src/mcp/index.js";

const [url, queue, port] = process.argv.slice(2) as [string, string, string];
const redis = new Redis(url);
// The adapter docs/mcp.md shows: a string per task, kept until it ends, then for its retention.
const records: McpTaskRecords = {
  save: async (taskId, record, ttlMs) => {
    if (ttlMs === Infinity) await redis.set(`mcp-task:${taskId}`, record);
    else await redis.set(`mcp-task:${taskId}`, record, "PX", ttlMs);
  },
  load: async (taskId) => (await redis.get(`mcp-task:${taskId}`)) ?? undefined,
};
const executor = bullmqExecutor({ connection: url, queue, key: "mcp-tasks" });
// The tool as the server lists it; its handler runs on the workers, never here.
const job = defineTool({
  name: "job",
  description: "",
  schema: { type: "object", properties: {} } as const,
  handler: () => error(new ToolError("handler_raised", { message: "runs on the workers", toolName: "job", toolCallId: "" })),
});
const store = new McpTaskStore();
const http = createServer(async (req, res) => {
  const server = new Server({ name: "toolrx", version: "1.0.0" });
  serveTools(server, [job], { tasks: { all: true, required: true, store, records, pollInterval: 50 }, toolExecutor: executor, toolTimeout: Infinity });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
