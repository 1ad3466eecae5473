// The tasks extension of revision 2026-07-28 (io.modelcontextprotocol/tasks), toolrx's mcpTools
// against toolrx's serveTools on the 2.x SDK, in memory and over Streamable HTTP.
import { isCreateTaskResultV2, isDetailedTaskV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { Subject } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, defineTool, error, ok, runToolCalls, type ToolCall, type ToolError } from "../../../src/index.js";
import { type McpTaskRecords, McpTaskStore, mcpJournalReattach, mcpTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";
import { type Exchange, REACHES, servedOnExt } from "./ext-task-servers.js";
import { sleep } from "../support/servers";
import { gatedJob } from "./task-servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

const object = { type: "object", properties: {} } as const;
const call = (name: string, id = `c-${name}`): ToolCall => ({ id, name, arguments: {} });
const taskReports = (reports: CallReport[]) =>
  reports.flatMap((r) => (r.type === "progress" && r.data !== undefined ? [(r.data as { mcpTask: { taskId: string; status: string } }).mcpTask] : []));
const EXT = "io.modelcontextprotocol/tasks";
const optedIn = (e: Exchange) => {
  const meta = (e.request.params as { _meta?: Record<string, { extensions?: Record<string, unknown> }> })._meta;
  return meta?.["io.modelcontextprotocol/clientCapabilities"]?.extensions?.[EXT] !== undefined;
};
const FAST = { tasks: { maxPollInterval: 20 } };

const waiting = (aborted: unknown[]) =>
  defineTool({
    name: "waits",
    description: "",
    schema: object,
    metadata: { longRunning: true },
    handler: (_a, ctx) =>
      new Promise((resolve) => {
        ctx.progress({ progress: 1, message: "started" });
        ctx.signal.addEventListener("abort", () => {
          aborted.push(ctx.signal.reason);
          resolve(ok("stopped"));
        });
      }),
  });

describe.each(REACHES)("the tasks extension of revision 2026-07-28, toolrx to toolrx (%s)", (reach) => {
  it("a long tool runs as a task: an opted-in tools/call answered resultType task, then tasks/get until its result", async () => {
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
    const wire: Exchange[] = [];
    const client = await servedOnExt(reach, [long], { tasks: { pollInterval: 20 } }, closers, wire);
    expect(client.getProtocolEra()).toBe("modern");
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("long")], await mcpTools(client), { onCallReport: (r) => reports.push(r) });
    expect(messages.map((m) => m.content)).toEqual(['{"done":true}']);
    const tasks = taskReports(reports);
    expect(must(tasks[0]).taskId).toMatch(/^task-/);
    expect(tasks.map((t) => t.status)).toEqual(expect.arrayContaining(["working", "completed"]));
    expect(reports.some((r) => r.type === "progress" && r.message === "halfway")).toBe(true);
    await expect.poll(() => wire.every((e) => e.response !== undefined)).toBe(true);
    const calls = wire.filter((e) => e.request.method !== "server/discover" && e.request.method !== "tools/list");
    expect(new Set(calls.map((e) => e.request.method))).toEqual(new Set(["tools/call", "tasks/get"]));
    expect(calls.every(optedIn)).toBe(true);
    // Checked against the extension's own schemas (@modelcontextprotocol/ext-tasks).
    const created = must(calls[0]?.response?.result) as Record<string, unknown>;
    expect(created).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 20 });
    expect(isCreateTaskResultV2(created)).toBe(true);
    const polled = calls.slice(1).map((e) => must(e.response?.result) as Record<string, unknown>);
    expect(polled.every((r) => r.resultType === "complete" && isDetailedTaskV2(r))).toBe(true);
    expect(polled.at(-1)).toMatchObject({ status: "completed", result: { structuredContent: { done: true }, isError: false } });
  });

  it("a failing tool's task completes with its isError result (the extension keeps failed for JSON-RPC errors): the model reads the error", async () => {
    const failing = defineTool({ name: "failing", description: "", schema: object, handler: () => error("disk full") });
    const client = await servedOnExt(reach, [failing], { tasks: { all: true, pollInterval: 20 } }, closers);
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("failing")], await mcpTools(client), { onCallReport: (r) => reports.push(r) });
    expect(must(messages[0])).toMatchObject({ isError: true });
    expect(must(messages[0]).content).toContain("disk full");
    expect(taskReports(reports).at(-1)?.status).toBe("completed");
  });

  it("a deadline sends tasks/cancel: the tool's signal aborts on the server, and the late settlement is the confirmed cancel", async () => {
    const aborted: unknown[] = [];
    const wire: Exchange[] = [];
    const client = await servedOnExt(reach, [waiting(aborted)], { tasks: { pollInterval: 20 } }, closers, wire);
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("waits")], await mcpTools(client, FAST), {
      toolTimeout: 400,
      settleGrace: 20_000,
      onCallReport: (r) => reports.push(r),
    });
    expect(must(messages[0]).content).toContain("timeout");
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 10_000 }).toBeDefined();
    expect(aborted).toHaveLength(1);
    const late = must(reports.find((r) => r.type === "late_settlement")) as { settled: boolean; result: { reason: ToolError } };
    expect(late.settled).toBe(true);
    expect(late.result.reason.message).toMatch(/was cancelled; the server confirmed it/);
    const cancel = must(wire.find((e) => e.request.method === "tasks/cancel"));
    expect(optedIn(cancel)).toBe(true);
    await expect.poll(() => cancel.response?.result).toMatchObject({ resultType: "complete" });
  });

  it("a cancel by the host does the same", async () => {
    const aborted: unknown[] = [];
    const client = await servedOnExt(reach, [waiting(aborted)], { tasks: { pollInterval: 20 } }, closers);
    const cancel = new Subject<string>();
    const reports: CallReport[] = [];
    await runToolCalls([call("waits")], await mcpTools(client, FAST), {
      cancel,
      settleGrace: 20_000,
      onCallReport: (r) => {
        reports.push(r);
        if (r.type === "progress" && r.message === "started") cancel.next("c-waits");
      },
    });
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 10_000 }).toMatchObject({ abandoned: "cancelled", settled: true });
    expect(aborted).toHaveLength(1);
  });

  it("a client dropped mid-task and started again re-attaches by the task id its journal kept: one run on the server", async () => {
    const store = new McpTaskStore();
    const { tool: job, open, runs } = gatedJob();
    const options = { tasks: { all: true, store, pollInterval: 20 } };
    const first = await servedOnExt(reach, [job], options, closers);
    const reports: CallReport[] = [];
    const running = runToolCalls([call("job")], await mcpTools(first, FAST), { onCallReport: (r) => reports.push(r) });
    await expect.poll(() => taskReports(reports).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const handle = must(reports.map((r) => mcpJournalReattach.handleOf(r)).find((h) => h !== undefined));
    await first.close(); // the first process goes away mid-task
    expect(must((await running).messages[0]).isError).toBe(true);
    const wire: Exchange[] = [];
    const second = await servedOnExt(reach, [job], options, closers, wire);
    const again = runToolCalls([mcpJournalReattach.callOf(call("job"), handle)], await mcpTools(second, FAST));
    await sleep(100);
    open();
    expect(must((await again).messages[0]).content).toBe("finished");
    expect(runs()).toBe(1);
    expect(wire.some((e) => e.request.method === "tools/call")).toBe(false);
  });

  it("a task ended on a server process that stopped is answered from its records by one started again, without running it", async () => {
    const saved = new Map<string, string>();
    const records: McpTaskRecords = { save: async (id, record) => void saved.set(id, record), load: async (id) => saved.get(id) };
    let runs = 0;
    const job = defineTool({ name: "job", description: "", schema: object, handler: () => ok(`run ${++runs}`) });
    const first = await servedOnExt(reach, [job], { tasks: { all: true, records, pollInterval: 20 } }, closers);
    const reports: CallReport[] = [];
    await runToolCalls([call("job")], await mcpTools(first, FAST), { onCallReport: (r) => reports.push(r) });
    const { taskId } = must(taskReports(reports)[0]);
    // A new store: what the process that stopped kept in memory is gone; its records are not.
    const second = await servedOnExt(reach, [job], { tasks: { all: true, records, store: new McpTaskStore(), pollInterval: 20 } }, closers);
    const { messages } = await runToolCalls([mcpJournalReattach.callOf(call("job"), taskId)], await mcpTools(second, FAST));
    expect(must(messages[0]).content).toBe("run 1");
    expect(runs).toBe(1);
  });

  it("a request that did not opt in is answered at once; a task request without the extension is refused with -32021", async () => {
    const long = defineTool({ name: "long", description: "", schema: object, metadata: { longRunning: true }, handler: () => ok("right away") });
    const client = await servedOnExt(reach, [long], { tasks: {} }, closers);
    expect(client.getServerCapabilities()?.extensions).toEqual({ [EXT]: {} });
    // The SDK's own callTool does not opt in.
    expect(await client.callTool({ name: "long", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "right away" }], isError: false });
    const get = client.request(
      { method: "tasks/get", params: { taskId: "task-x" } } as never,
      { "~standard": { validate: (v: unknown) => ({ value: v }) } } as never,
    );
    await expect(get).rejects.toMatchObject({ code: -32021 });
  });
});
