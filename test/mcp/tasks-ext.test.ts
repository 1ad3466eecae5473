import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, defineTool, ok, runToolCalls, type ToolCall } from "../../src/index.js";
import { McpTaskStore, mcpTools } from "../../src/mcp/index.js";
import { must } from "../support/must.js";
import { REACHES, servedOnExt } from "./ext-task-servers.js";
import { sleep } from "./servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

const object = { type: "object", properties: {} } as const;
const call = (name: string, id = `c-${name}`): ToolCall => ({ id, name, arguments: {} });
const taskReports = (reports: CallReport[]) =>
  reports.flatMap((r) => (r.type === "progress" && r.data !== undefined ? [(r.data as { mcpTask: { taskId: string; status: string } }).mcpTask] : []));

describe.each(REACHES)("the tasks extension of revision 2026-07-28, toolrx to toolrx (%s)", (reach) => {
  it("a long tool runs as a task: resultType task, followed with tasks/get, its progress the task's status", async () => {
    const long = defineTool({
      name: "long",
      description: "",
      schema: object,
      metadata: { longRunning: true },
      handler: async (_a, ctx) => {
        ctx.progress({ progress: 1, message: "halfway" });
        await sleep(150);
        return ok({ done: true });
      },
    });
    const client = await servedOnExt(reach, [long], { tasks: { store: new McpTaskStore(), pollInterval: 20 } }, closers);
    expect(client.getProtocolEra()).toBe("modern");
    const tools = await mcpTools(client);
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("long")], tools, { onCallReport: (r) => reports.push(r) });
    expect(messages.map((m) => m.content)).toEqual(['{"done":true}']);
    const tasks = taskReports(reports);
    expect(must(tasks[0]).taskId).toMatch(/^task-/);
    expect(tasks.map((t) => t.status)).toContain("completed");
  });
});
