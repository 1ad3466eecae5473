import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runToolCalls, type ToolCall, type ToolError } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { LINES, type SdkLine } from "../support/servers";
import { must } from "../../support/must.js";

const fixture = fileURLToPath(new URL("./stdio-server.ts", import.meta.url));
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

/** A client connected to the fixture server in a child process, over stdio. */
async function spawnServer(line: SdkLine): Promise<ClientV1 | ClientV2> {
  const params = { command: process.execPath, args: ["--import", "tsx", fixture, line], stderr: "ignore" as const };
  const client = line === "v1" ? new ClientV1({ name: "c", version: "1" }) : new ClientV2({ name: "c", version: "1" });
  await client.connect((line === "v1" ? new StdioV1(params) : new StdioV2(params)) as never);
  clients.push(client);
  return client;
}
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `c-${name}`, name, arguments: args });

describe.each(LINES)(
  "an MCP server in a child process over stdio (SDK %s)",
  (line) => {
    it("lists every page and answers calls, progress included", async () => {
      const client = await spawnServer(line);
      const tools = await mcpTools({ child: client });
      expect(tools.map((t) => t.name)).toEqual(["child__echo", "child__count", "child__slow", "child__crash", "child__pid"]);
      const reports: string[] = [];
      const result = await runToolCalls([call("child__echo", { say: "hi" }), call("child__count")], tools, {
        onCallReport: (r) => void (r.type === "progress" && reports.push(`${r.toolName} ${r.message ?? ""}`)),
      });
      expect(result.messages.map((m) => m.content)).toEqual(["hi", "counted"]);
      // The SDKs drop a notification that reaches them in the same read as the response (see the
      // fixture); on a loaded machine the last one can, so every report but the last must be there.
      const all = ["child__count step 1", "child__count step 2", "child__count step 3"];
      expect(reports.length).toBeGreaterThanOrEqual(2);
      expect(reports).toEqual(all.slice(0, reports.length));
    });

    it("a deadline cancels the call in the child and answers timeout; the next call still works", async () => {
      const client = await spawnServer(line);
      const tools = await mcpTools(client);
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      await runToolCalls([call("slow")], tools, { toolTimeout: 200, onToolError });
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("timeout");
      const again = await runToolCalls([call("echo", { say: "still here" })], tools);
      expect(must(again.messages[0]).content).toBe("still here");
    });

    it("a server process that dies mid-call: handler_exit for that call, long before its deadline", async () => {
      const client = await spawnServer(line);
      const tools = await mcpTools(client);
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      const started = Date.now();
      await runToolCalls([call("crash")], tools, { toolTimeout: 15_000, onToolError });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("handler_exit");
    });
    // Each test spawns a tsx child; with the task tests spawning theirs beside it on a loaded 2-core
    // machine, the 20 s default proved too short (a timeout seen in a run of all of test/mcp).
  },
  60_000,
);
