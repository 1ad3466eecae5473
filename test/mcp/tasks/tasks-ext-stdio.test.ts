// The tasks extension of revision 2026-07-28 over stdio: toolrx's mcpTools on a 2.x client pinned
// to 2026-07-28, against toolrx's serveTools behind the 2.x SDK's serveStdio in a child process.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Subject } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, runToolCalls, type ToolCall, type ToolError } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";

const fixture = fileURLToPath(new URL("./ext-task-stdio-server.ts", import.meta.url));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

const EXT = "io.modelcontextprotocol/tasks";
const FAST = { tasks: { maxPollInterval: 20 } };
const call = (name: string): ToolCall => ({ id: `c-${name}`, name, arguments: {} });
const taskReports = (reports: CallReport[]) =>
  reports.flatMap((r) => (r.type === "progress" && r.data !== undefined ? [(r.data as { mcpTask: { taskId: string; status: string } }).mcpTask] : []));

/** A 2.x client on 2026-07-28 connected to the fixture in a child process, and the child's stderr as it comes. */
async function connect(...args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", fixture, ...args], stderr: "pipe" });
  let text = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const client = new Client({ name: "toolrx-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport);
  closers.unshift(() => client.close());
  return { client, stderr: () => text };
}

describe("the tasks extension of revision 2026-07-28 over stdio, in a child process (SDK v2)", () => {
  it("a long tool runs as a task: its steps reach ctx.progress as the task's status, then its result", async () => {
    const { client } = await connect();
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerCapabilities()?.extensions).toEqual({ [EXT]: {} });
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("steps")], await mcpTools(client, FAST), { onCallReport: (r) => reports.push(r) });
    expect(must(messages[0]).content).toBe("three steps done");
    const tasks = taskReports(reports);
    expect(must(tasks[0]).taskId).toMatch(/^task-/);
    expect(tasks.at(-1)?.status).toBe("completed");
    const statuses = reports.flatMap((r) => (r.type === "progress" ? [r.message] : []));
    expect(statuses).toContain("step 2");
    expect(statuses).toContain("step 3");
  }, 60_000);

  it("a deadline sends tasks/cancel: the tool's signal aborts in the child, and the late settlement is the confirmed cancel", async () => {
    const { client, stderr } = await connect();
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("waits")], await mcpTools(client, FAST), {
      toolTimeout: 1_000,
      settleGrace: 30_000,
      onCallReport: (r) => reports.push(r),
    });
    expect(must(messages[0]).content).toContain("timeout");
    expect(taskReports(reports).length).toBeGreaterThan(0);
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 20_000 }).toBeDefined();
    const late = must(reports.find((r) => r.type === "late_settlement")) as { settled: boolean; result: { reason: ToolError } };
    expect(late.settled).toBe(true);
    expect(late.result.reason.message).toMatch(/was cancelled; the server confirmed it/);
    await expect.poll(stderr, { timeout: 20_000 }).toContain("waits: aborted");
  }, 60_000);

  it("a cancel by the host does the same", async () => {
    const { client, stderr } = await connect();
    const cancel = new Subject<string>();
    const reports: CallReport[] = [];
    await runToolCalls([call("waits")], await mcpTools(client, FAST), {
      cancel,
      settleGrace: 30_000,
      onCallReport: (r) => {
        reports.push(r);
        if (r.type === "progress" && r.message === "started") cancel.next("c-waits");
      },
    });
    expect(taskReports(reports).length).toBeGreaterThan(0);
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 20_000 }).toMatchObject({ abandoned: "cancelled", settled: true });
    await expect.poll(stderr, { timeout: 20_000 }).toContain("waits: aborted");
  }, 60_000);
});
