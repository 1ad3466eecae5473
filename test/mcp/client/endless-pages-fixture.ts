// Run by fail-closed.test.ts in a child process, so that a listing that never ends (a spin no
// timer can interrupt) is killed instead of hanging the test run: `tsx endless-pages-fixture.ts
// v1|v2 fast|slow`. Prints what mcpTools ended with, as JSON.
import { mcpTools } from "../../../src/mcp/index.js";
import { connect, type SdkLine } from "../support/servers";

const [line, mode] = process.argv.slice(2) as [SdkLine, "fast" | "slow"];
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
let n = 0;
const c = await connect(line, {
  tools: [],
  list: () => {
    if (mode === "slow") busy(2);
    return { tools: mode === "fast" ? [{ name: `t${n}`, inputSchema: { type: "object" } }] : [], nextCursor: `c${n++}` };
  },
});
const outcome = await mcpTools(c.client, { listTimeout: mode === "fast" ? 60_000 : 100 }).then(
  (tools) => ({ tools: tools.length }),
  (e: { reason?: string; message?: string }) => ({ reason: e.reason, message: e.message }),
);
console.log(JSON.stringify({ ...outcome, pages: c.listCalls.length }));
await c.close();
