// toolrx's serveTools on revision 2026-07-28 over stdio, run as a child process by
// tasks-ext-stdio.test.ts: `tsx ext-task-stdio-server.ts [plain]`. The 2.x SDK's serveStdio makes
// the era decision from the client's opening; with `plain` the server is served without `tasks`,
// so it declares no tasks extension. A tool that sees its signal abort says so on stderr.
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { defineTool, ok } from "../../../src/index.js";
import { McpTaskStore, serveTools } from "../../../src/mcp/index.js";
import { sleep } from "../support/servers";

const object = { type: "object", properties: {} } as const;
const steps = defineTool({
  name: "steps",
  description: "Three steps, a while apart",
  schema: object,
  metadata: { longRunning: true },
  handler: async (_a, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress({ progress: i, total: 3, message: `step ${i}` });
      await sleep(300, ctx.signal);
    }
    return ok("three steps done");
  },
});
const waits = defineTool({
  name: "waits",
  description: "Waits until cancelled",
  schema: object,
  metadata: { longRunning: true },
  handler: (_a, ctx) =>
    new Promise((resolve) => {
      ctx.progress({ progress: 1, message: "started" });
      ctx.signal.addEventListener("abort", () => {
        process.stderr.write("waits: aborted\n");
        resolve(ok("stopped"));
      });
    }),
});
const options = process.argv[2] === "plain" ? {} : { tasks: { store: new McpTaskStore(), pollInterval: 20 } };
serveStdio(() => {
  const server = new Server({ name: "toolrx", version: "1.0.0" });
  serveTools(server, [steps, waits], options);
  return server;
});
