import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, runToolCalls } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";
import { LINES } from "../support/servers";

const fixture = fileURLToPath(new URL("./task-stdio-server.ts", import.meta.url));
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

describe.each(LINES)("serveTools' tasks over stdio, in a child process (SDK %s)", (line) => {
  it("the task runs to its end; its steps reach the client as the task's status", async () => {
    const params = { command: process.execPath, args: ["--import", "tsx", fixture, line], stderr: "ignore" as const };
    const client = line === "v1" ? new ClientV1({ name: "c", version: "1" }) : new ClientV2({ name: "c", version: "1" });
    await client.connect((line === "v1" ? new StdioV1(params) : new StdioV2(params)) as never);
    clients.push(client);
    const tools = await mcpTools(client);
    expect(must(tools[0]).metadata.mcp).toMatchObject({ taskSupport: "required" });
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([{ id: "c1", name: "steps", arguments: {} }], tools, { onCallReport: (r) => reports.push(r) });
    expect(must(messages[0]).content).toBe("three steps done");
    const statuses = reports.flatMap((r) => (r.type === "progress" ? [r.message] : []));
    expect(statuses).toContain("step 2");
    expect(statuses.at(-1)).toBe("step 3");
  }, 60_000);
});
