// An MCP server over stdio, run as a child process by stdio.test.ts: `tsx stdio-server.ts v1|v2`.
import { StdioServerTransport as StdioV1 } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StdioServerTransport as StdioV2 } from "@modelcontextprotocol/server/stdio";
import { buildServer, sleep, text, type SdkLine } from "../support/servers";

const line = process.argv[2] as SdkLine;
const server = buildServer(
  line,
  {
    pageSize: 2,
    tools: [
      { name: "echo", inputSchema: { type: "object", properties: { say: { type: "string" } } }, handler: ({ say }) => text(String(say)) },
      {
        name: "count",
        handler: async (_a, ctx) => {
          // Both SDKs handle notifications a microtask late and responses at once, so progress that
          // reaches the client in the same chunk as the response is dropped; real work takes time.
          for (let i = 1; i <= 3; i++) {
            await ctx.progress(i, 3, `step ${i}`);
            await sleep(60);
          }
          return text("counted");
        },
      },
      { name: "slow", handler: (_a, ctx) => sleep(10_000, ctx.signal).then(() => text("late")) },
      {
        name: "crash",
        handler: async () => {
          setTimeout(() => process.exit(3), 20);
          return new Promise(() => {});
        },
      },
      { name: "pid", handler: () => text(String(process.pid)) },
    ],
  },
  { listCalls: [], cancelled: [] },
);
await server.connect((line === "v1" ? new StdioV1() : new StdioV2()) as never);
