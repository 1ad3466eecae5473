import { Subject } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type CallReport, defineTool, error, ok, runToolCalls, type Tool, type ToolCall, type ToolError } from "../../../src/index.js";
import { McpTaskStore, mcpReattachCall, mcpTools, serveTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";
import { LINES, sleep, text } from "../support/servers";
import { gatedJob, rawTaskServer, servedWithTasks, taskOf } from "./task-servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

const call = (name: string, args: Record<string, unknown> = {}, id = `c-${name}`): ToolCall => ({ id, name, arguments: args });
const object = { type: "object", properties: {} } as const;
const taskReports = (reports: CallReport[]) =>
  reports.flatMap((r) => (r.type === "progress" && r.data !== undefined ? [(r.data as { mcpTask: { taskId: string; status: string } }).mcpTask] : []));
const FAST = { tasks: { optional: true, maxPollInterval: 20 } };

describe.each(LINES)("serveTools serves long tools as tasks; mcpTools calls them as tasks (SDK %s)", (line) => {
  it("lists a long tool with taskSupport; it runs as a task, its ctx.progress its status, and answers", async () => {
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
    const quick = defineTool({ name: "quick", description: "", schema: object, handler: () => ok("q") });
    const client = await servedWithTasks(line, [long, quick], closers, { tasks: {} });
    const tools = await mcpTools(client, FAST);
    expect(tools.map((t) => (t.metadata.mcp as { taskSupport?: string }).taskSupport)).toEqual(["optional", undefined]);
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("long"), call("quick")], tools, { onCallReport: (r) => reports.push(r) });
    expect(messages.map((m) => m.content)).toEqual(['{"done":true}', "q"]);
    const tasks = taskReports(reports);
    expect(must(tasks[0]).taskId).toMatch(/^task-/);
    expect(tasks.map((t) => t.status)).toContain("completed");
    expect(reports.some((r) => r.type === "progress" && r.message === "halfway")).toBe(true);
  });

  it("a failing task answers the tool's error, and its status says failed", async () => {
    const failing = defineTool({ name: "failing", description: "", schema: object, handler: () => error("disk full") });
    const client = await servedWithTasks(line, [failing], closers, { tasks: { all: true, required: true } });
    const tools = await mcpTools(client, { tasks: { maxPollInterval: 20 } });
    expect((must(tools[0]).metadata.mcp as { taskSupport?: string }).taskSupport).toBe("required");
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("failing")], tools, { onCallReport: (r) => reports.push(r) });
    expect(must(messages[0])).toMatchObject({ isError: true });
    expect(must(messages[0]).content).toContain("disk full");
    expect(taskReports(reports).at(-1)?.status).toBe("failed");
  });

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

  it("a deadline sends tasks/cancel: the tool's signal aborts on the server, and the late settlement is the confirmed cancel", async () => {
    const aborted: unknown[] = [];
    const client = await servedWithTasks(line, [waiting(aborted)], closers, { tasks: {} });
    const tools = await mcpTools(client, FAST);
    const reports: CallReport[] = [];
    const { messages } = await runToolCalls([call("waits")], tools, { toolTimeout: 400, settleGrace: 20_000, onCallReport: (r) => reports.push(r) });
    expect(must(messages[0]).content).toContain("timeout");
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 10_000 }).toBeDefined();
    expect(aborted).toHaveLength(1);
    const late = must(reports.find((r) => r.type === "late_settlement")) as { settled: boolean; result: { reason: ToolError } };
    expect(late.settled).toBe(true);
    expect(late.result.reason.message).toMatch(/was cancelled; the server confirmed it/);
  });

  it("a cancel by the host does the same", async () => {
    const aborted: unknown[] = [];
    const client = await servedWithTasks(line, [waiting(aborted)], closers, { tasks: {} });
    const tools = await mcpTools(client, FAST);
    const cancel = new Subject<string>();
    const reports: CallReport[] = [];
    const done = runToolCalls([call("waits")], tools, {
      cancel,
      settleGrace: 20_000,
      onCallReport: (r) => {
        reports.push(r);
        if (r.type === "progress" && r.message === "started") cancel.next("c-waits");
      },
    });
    await done;
    await expect.poll(() => reports.find((r) => r.type === "late_settlement"), { timeout: 10_000 }).toMatchObject({ abandoned: "cancelled", settled: true });
    expect(aborted).toHaveLength(1);
  });

  it("a client process started again mid-task re-attaches by the task id: the task is followed, not run again", async () => {
    const store = new McpTaskStore();
    const { tool: job, open, runs } = gatedJob();
    const first = await servedWithTasks(line, [job], closers, { tasks: { all: true, store } });
    const reports: CallReport[] = [];
    const running = runToolCalls([call("job")], await mcpTools(first, FAST), { onCallReport: (r) => reports.push(r) });
    await expect.poll(() => taskReports(reports).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const { taskId } = must(taskReports(reports)[0]);
    await first.close(); // the first process goes away mid-task
    expect(must((await running).messages[0]).isError).toBe(true);
    // A new process: a new client, to a new server instance over the same task store.
    const second = await servedWithTasks(line, [job], closers, { tasks: { all: true, store } });
    const again = runToolCalls([mcpReattachCall(call("job"), taskId)], await mcpTools(second, FAST));
    await sleep(100);
    open();
    expect(must((await again).messages[0]).content).toBe("finished");
    expect(runs()).toBe(1);
  });

  it("re-attaching to a task the server does not know is an error the model reads", async () => {
    const client = await servedWithTasks(line, [waiting([])], closers, { tasks: {} });
    const { messages } = await runToolCalls([mcpReattachCall(call("waits"), "task-nope")], await mcpTools(client, FAST));
    expect(must(messages[0])).toMatchObject({ isError: true });
    expect(must(messages[0]).content).toMatch(/Task not found: task-nope/);
  });

  it("rejects bad task options with a TypeError naming them", () => {
    expect(() => serveTools({ setRequestHandler() {} } as never, [], { tasks: { retention: 0 } })).toThrow(/`tasks.retention`/);
    expect(() => serveTools({ setRequestHandler() {} } as never, [], { tasks: { store: {} as never } })).toThrow(/`tasks.store`/);
  });
});

describe.each(LINES)("mcpTools against task servers that answer oddly (SDK %s)", (line) => {
  const onToolError = () => vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
  const reasonOf = (f: ReturnType<typeof onToolError>) => must(f.mock.calls[0])[1] as ToolError;

  it("a server that answers a task tool at once: that answer is the result (a 1.x server refuses to send it)", async () => {
    const client = await rawTaskServer(line, { call: async () => text("right away") }, closers);
    const policy = onToolError();
    const { messages } = await runToolCalls([call("job")], await mcpTools(client, FAST), { onToolError: policy });
    if (line === "v2") expect(must(messages[0]).content).toBe("right away");
    else expect(reasonOf(policy)).toMatchObject({ reason: "invalid_return", message: expect.stringMatching(/not a CallToolResult: task: Invalid input/) });
  });

  it.each([
    ["a task without a taskId string", { call: async () => ({ task: taskOf(7, "working"), content: [] }) }, /no taskId string|task\.taskId: Invalid input/],
    [
      "a status no revision has",
      { call: async () => ({ task: taskOf("t1", "working"), content: [] }), get: async () => taskOf("t1", "exploded") },
      /unknown status "exploded"/,
    ],
    [
      "another task's state",
      { call: async () => ({ task: taskOf("t1", "working"), content: [] }), get: async () => taskOf("other", "working") },
      /asked for task "t1", the server described task "other"/,
    ],
  ])("%s is invalid_return, never followed", async (_name, handlers, message) => {
    const client = await rawTaskServer(line, handlers, closers);
    const policy = onToolError();
    await runToolCalls([call("job")], await mcpTools(client, FAST), { onToolError: policy });
    expect(reasonOf(policy).reason).toBe("invalid_return");
    expect(reasonOf(policy).message).toMatch(message);
  });

  it("mcpTools rejects bad task options with a TypeError naming them", async () => {
    const client = await rawTaskServer(line, { call: async () => text("x") }, closers);
    await expect(mcpTools(client, { tasks: { ttl: -1 } })).rejects.toThrow(/`tasks.ttl`/);
    await expect(mcpTools(client, { tasks: { optional: "yes" as never } })).rejects.toThrow(/`tasks.optional`/);
    await expect(mcpTools(client, { elicitation: { holdFor: 0 } })).rejects.toThrow(/`elicitation.holdFor`/);
  });
});

describe.each(LINES)("a server's elicitation/create during a call, before 2026-07-28 (SDK %s)", (line) => {
  const asking = (seen: unknown[]) => ({
    call: async (
      _r: unknown,
      rctx: { elicit: (p: Record<string, unknown>, o: { signal: AbortSignal; timeout: number }) => Promise<unknown>; signal: AbortSignal },
    ) => {
      const schema = { type: "object", properties: { a: { type: "string" } } };
      const first = await rctx.elicit({ message: "First?", requestedSchema: schema }, { signal: rctx.signal, timeout: 60_000 });
      seen.push(first);
      const second = await rctx.elicit({ message: "Second?", requestedSchema: schema }, { signal: rctx.signal, timeout: 60_000 });
      seen.push(second);
      return text(JSON.stringify([first, second]));
    },
  });

  it("asks the host twice through ask_user; each answer resumes the held call, a decline included", async () => {
    const seen: unknown[] = [];
    const client = await rawTaskServer(line, asking(seen) as never, closers, "forbidden");
    const tools: Tool[] = await mcpTools(client, { elicitation: { holdFor: 30_000 } });
    const { mcpRetryCall } = await import("../../../src/mcp/index.js");
    const first = await runToolCalls([call("job")], tools);
    expect(first.halt).toMatchObject({ haltedReason: "ask_user", pendingQuestion: "First?" });
    const input = (halt: unknown) => (halt as { askUserOpts: { mcp: never } }).askUserOpts.mcp;
    const second = await runToolCalls([mcpRetryCall(input(first.halt), { elicitation: { action: "accept", content: { a: "x" } } }, "c-job")], tools);
    expect(second.halt).toMatchObject({ haltedReason: "ask_user", pendingQuestion: "Second?" });
    const third = await runToolCalls([mcpRetryCall(input(second.halt), { elicitation: { action: "decline" } }, "c-job")], tools);
    expect(third.halt).toBeUndefined();
    expect(JSON.parse(must(third.messages[0]).content)).toEqual([{ action: "accept", content: { a: "x" } }, { action: "decline" }]);
  });

  it("no answer within holdFor: the server hears cancel, and a late answer finds the call gone", async () => {
    const seen: unknown[] = [];
    const client = await rawTaskServer(line, asking(seen) as never, closers, "forbidden");
    const tools = await mcpTools(client, { elicitation: { holdFor: 200 } });
    const { mcpRetryCall } = await import("../../../src/mcp/index.js");
    const first = await runToolCalls([call("job")], tools);
    expect(first.halt?.haltedReason).toBe("ask_user");
    // Its second question finds no one to ask, and is dismissed at once too.
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual([{ action: "cancel" }, { action: "cancel" }]);
    const late = await runToolCalls(
      [mcpRetryCall((first.halt as { askUserOpts: { mcp: never } }).askUserOpts.mcp, { elicitation: { action: "accept" } }, "c-job")],
      tools,
    );
    expect(must(late.messages[0]).content).toMatch(/is gone/);
  });
});
