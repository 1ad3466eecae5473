// toolrx's serveTools serving a long tool as a task over stdio, run as a child process by
// tasks-stdio.test.ts: `tsx task-stdio-server.ts v1|v2`.
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport as StdioV1 } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { StdioServerTransport as StdioV2 } from "@modelcontextprotocol/server/stdio";
import { defineTool, ok } from "../../../src/index.js";
import { serveTools } from "../../../src/mcp/index.js";
import { sleep } from "../support/servers";

const line = process.argv[2];
const steps = defineTool({
  name: "steps",
  description: "Three steps, a while apart",
  schema: { type: "object", properties: {} } as const,
  metadata: { longRunning: true },
  handler: async (_a, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress({ progress: i, total: 3, message: `step ${i}` });
      await sleep(300, ctx.signal);
    }
    return ok("three steps done");
  },
});
const server = line === "v1" ? new ServerV1({ name: "toolrx", version: "1.0.0" }) : new ServerV2({ name: "toolrx", version: "1.0.0" });
serveTools(server, [steps], { tasks: { required: true, pollInterval: 50 } });
await server.connect((line === "v1" ? new StdioV1() : new StdioV2()) as never);
