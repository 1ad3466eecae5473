// Run by fail-closed.test.ts as a command-line program would: `tsx list-exit-fixture.ts`. One
// server fails listing at once, the other never answers; the program must exit at once, not
// when the second server's listTimeout (60 s) runs out.
import { mcpTools, type McpClientLike } from "../../../src/mcp/index.js";

const down: McpClientLike = { listTools: () => Promise.reject(new Error("connection refused")), callTool: async () => ({ content: [] }) };
const hangs: McpClientLike = { listTools: () => new Promise(() => {}), callTool: async () => ({ content: [] }) };
await mcpTools({ down, hangs }, { listTimeout: 60_000 }).catch((e: Error) => console.log(e.message));
