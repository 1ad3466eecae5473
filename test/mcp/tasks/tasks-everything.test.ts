// mcpTools against @modelcontextprotocol/server-everything 2026.8.31 (1.x SDK server, protocol
// revision 2025-11-25) in a child process over stdio: its `simulate-research-query` tool requires
// tasks, and asks for a clarification with elicitation/create through tasks/result.
import { createRequire } from "node:module";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallReport, runToolCalls, type Tool, type ToolCall } from "../../../src/index.js";
import { type McpInputRequest, mcpRetryCall, mcpTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";
import { LINES, type SdkLine } from "../support/servers";

const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const research = (id: string, args: Record<string, unknown>): ToolCall => ({ id, name: "simulate-research-query", arguments: args });

describe.each(LINES)("server-everything's task tool, from a client of SDK %s", (line: SdkLine) => {
  let client: ClientV1 | ClientV2;
  let tools: Tool[];
  beforeAll(async () => {
    const params = { command: process.execPath, args: [entry, "stdio"], stderr: "ignore" as const };
    const info = { name: "toolrx-test", version: "1.0.0" };
    const caps = { capabilities: { elicitation: { form: {} } } };
    client = line === "v1" ? new ClientV1(info, caps) : new ClientV2(info, caps);
    await client.connect((line === "v1" ? new StdioV1(params) : new StdioV2(params)) as never);
    tools = await mcpTools(client, { tasks: { maxPollInterval: 200 }, elicitation: { holdFor: 60_000 } });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it("is called as a task: its status reaches onCallReport with the task id, then its result", async () => {
    expect(must(tools.find((t) => t.name === "simulate-research-query")).metadata.mcp).toMatchObject({ taskSupport: "required" });
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([research("r1", { topic: "tides" })], tools, { toolTimeout: 60_000, onCallReport: (r) => reports.push(r) });
    expect(must(messages[0]).isError).toBe(false);
    expect(must(messages[0]).content).toContain("# Research Report: tides");
    const tasks = reports.flatMap((r) => (r.type === "progress" ? [(r.data as { mcpTask: { taskId: string; status: string } }).mcpTask] : []));
    expect(tasks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tasks.map((t) => t.taskId)).size).toBe(1);
    expect(must(tasks[0]).taskId).toMatch(/^[0-9a-f]+$/);
    expect(reports.filter((r) => r.type === "progress").map((r) => (r.type === "progress" ? r.message : ""))).toContain("Gathering sources...");
  }, 60_000);

  it("asks the host through ask_user when the task needs input, and goes on with the answer", async () => {
    const first = await runToolCalls([research("r2", { topic: "python", ambiguous: true })], tools, { toolTimeout: 60_000 });
    expect(first.halt?.haltedReason).toBe("ask_user");
    const halt = first.halt as { pendingQuestion: string; askUserOpts: { mcp: McpInputRequest } };
    expect(halt.pendingQuestion).toContain('The research query "python" could have multiple interpretations');
    expect(halt.askUserOpts.mcp.taskId).toMatch(/^[0-9a-f]+$/);
    expect(typeof halt.askUserOpts.mcp.held).toBe("string");
    const retry = mcpRetryCall(halt.askUserOpts.mcp, { elicitation: { action: "accept", content: { interpretation: "snake" } } }, "r2");
    const second = await runToolCalls([retry], tools, { toolTimeout: 60_000 });
    expect(second.halt).toBeUndefined();
    expect(must(second.messages[0]).content).toContain("# Research Report: python (snake)");
  }, 60_000);

  it("a deadline sends tasks/cancel; the late settlement says the server confirmed the cancel", async () => {
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([research("r3", { topic: "slow" })], tools, {
      toolTimeout: 1_500,
      settleGrace: 30_000,
      onCallReport: (r) => reports.push(r),
    });
    expect(must(messages[0]).content).toContain("timeout");
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 20_000 }).toBeDefined();
    const late = must(reports.find((r) => r.type === "late_settlement"));
    expect(late).toMatchObject({ settled: true, abandoned: "timeout" });
    const result = (late as { result: { type: string; reason: { message: string; metadata: unknown } } }).result;
    expect(result.type).toBe("error");
    expect(result.reason.message).toMatch(/was cancelled; the server confirmed it/);
    expect(result.reason.metadata).toMatchObject({ mcpTask: { status: "cancelled" } });
  }, 60_000);
});
