// A client process for tasks-restart.test.ts: `tsx task-http-client.ts v1|v2 <url> start|<taskId>`.
// `start` calls the task tool `job` and prints each task id it hears of; given a task id, it
// re-attaches to that task and prints the result.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { runToolCalls, type ToolCall } from "../../../src/index.js";
import { mcpReattachCall, mcpTools } from "../../../src/mcp/index.js";

const [line, url, what] = process.argv.slice(2) as [string, string, string];
const client = line === "v1" ? new ClientV1({ name: "c", version: "1" }) : new ClientV2({ name: "c", version: "1" });
await client.connect((line === "v1" ? new HttpV1(new URL(url)) : new HttpV2(new URL(url))) as never);
const tools = await mcpTools(client, { tasks: { maxPollInterval: 50 } });
const call: ToolCall = { id: "c1", name: "job", arguments: {} };
if (what === "start") {
  await runToolCalls([call], tools, {
    toolTimeout: Infinity,
    onCallReport: (r) => {
      const task = r.type === "progress" ? (r.data as { mcpTask?: { taskId: string } } | undefined)?.mcpTask : undefined;
      if (task !== undefined) process.stdout.write(`${JSON.stringify({ taskId: task.taskId })}\n`);
    },
  });
} else {
  const { messages } = await runToolCalls([mcpReattachCall(call, what)], tools, { toolTimeout: 60_000 });
  process.stdout.write(`${JSON.stringify({ content: messages[0]?.content })}\n`);
  await client.close();
}
