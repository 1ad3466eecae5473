// serveTools's `tasks.records`: a task written down by one server process is served by another,
// started again over an empty store. These run in memory (the records in a Map); the real restart
// on BullMQ and Redis is tasks-bullmq.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, defineTool, type HandlerResult, ok, runToolCalls, type Tool, type ToolCall } from "../../../src/index.js";
import { McpTaskStore, type McpTaskRecords, mcpReattachCall, mcpTools, serveTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";
import { LINES } from "../support/servers";
import { servedWithTasks } from "./task-servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

const object = { type: "object", properties: {} } as const;
const call: ToolCall = { id: "c1", name: "job", arguments: { n: 1 } };
const FAST = { tasks: { maxPollInterval: 20 } };

/** Records in a Map, each save kept in order (`history`), as a Redis adapter would keep the last. */
function mapRecords() {
  const saved = new Map<string, string>();
  const history: { taskId: string; status: string; ttlMs: number }[] = [];
  const records: McpTaskRecords = {
    save: async (taskId, record, ttlMs) => {
      await Promise.resolve();
      saved.set(taskId, record);
      history.push({ taskId, status: (JSON.parse(record) as { task: { status: string } }).task.status, ttlMs });
    },
    load: (taskId) => saved.get(taskId),
  };
  return { records, saved, history };
}

/**
 * A tool whose first run never ends (its process "dies" with it) and whose later runs answer.
 * `idempotent`: safe to run again.
 */
function dyingTool(idempotent: boolean) {
  const runs: unknown[] = [];
  const tool: Tool = defineTool({
    name: "job",
    description: "",
    schema: object,
    ...(idempotent ? { control: { idempotent: true } } : {}),
    handler: async (args, ctx) => {
      runs.push(args);
      ctx.progress({ progress: 1, message: `run ${runs.length}` });
      if (runs.length === 1) return new Promise<HandlerResult>(() => {});
      return ok(`run ${runs.length} finished`);
    },
  });
  return { tool, runs };
}

/** Start `job` as a task on a first server; its task id once the task reported. */
async function startOn(line: (typeof LINES)[number], tools: readonly Tool[], records: McpTaskRecords): Promise<string> {
  const first = await servedWithTasks(line, tools, closers, { tasks: { all: true, required: true, records, store: new McpTaskStore() } });
  const reports: CallReport[] = [];
  void runToolCalls([call], await mcpTools(first, FAST), { onCallReport: (r) => reports.push(r) });
  const taskIdOf = () => reports.flatMap((r) => (r.type === "progress" ? [(r.data as { mcpTask?: { taskId: string } } | undefined)?.mcpTask?.taskId] : []))[0];
  await expect.poll(taskIdOf, { timeout: 10_000 }).toBeDefined();
  return must(taskIdOf());
}

/** A second server over a new, empty store and the same records, re-attached to `taskId`. */
async function followOnAnother(line: (typeof LINES)[number], tools: readonly Tool[], records: McpTaskRecords, taskId: string) {
  const second = await servedWithTasks(line, tools, closers, { tasks: { all: true, required: true, records, store: new McpTaskStore() } });
  const { messages } = await runToolCalls([mcpReattachCall(call, taskId)], await mcpTools(second, FAST), { toolTimeout: 20_000 });
  return must(messages[0]);
}

describe.each(LINES)("serveTools tasks.records (SDK %s)", (line) => {
  it("a task that ended is answered by a server started again, from its record, without running it", async () => {
    const { records, history } = mapRecords();
    let runs = 0;
    const quick = defineTool({
      name: "job",
      description: "",
      schema: object,
      handler: async (_a, ctx) => {
        runs++;
        ctx.progress({ progress: 1, message: "working on it" });
        return ok("done once");
      },
    });
    const taskId = await startOn(line, [quick], records);
    await expect.poll(() => history.at(-1)?.status, { timeout: 10_000 }).toBe("completed");
    // Written before it was answered, running records kept until the end, the ending for the retention.
    expect(history[0]).toEqual({ taskId, status: "working", ttlMs: Infinity });
    expect(history.at(-1)).toEqual({ taskId, status: "completed", ttlMs: 3_600_000 });
    const answer = await followOnAnother(line, [quick], records, taskId);
    expect(answer).toMatchObject({ isError: false, content: "done once" });
    expect(runs).toBe(1);
  });

  it("a task that was running, of a tool that is not idempotent on an executor that does not re-attach, fails with its fate unknown: not run again", async () => {
    const { records, history } = mapRecords();
    const dying = dyingTool(false);
    const taskId = await startOn(line, [dying.tool], records);
    const answer = await followOnAnother(line, [dying.tool], records, taskId);
    expect(answer.isError).toBe(true);
    expect(answer.content).toMatch(/whether the call to job took effect is unknown, and it was not run again/);
    expect(dying.runs).toHaveLength(1);
    expect(history.at(-1)).toMatchObject({ taskId, status: "failed" });
  });

  it("a task that was running, of an idempotent tool, runs again on the server started again, under the same task id", async () => {
    const { records } = mapRecords();
    const dying = dyingTool(true);
    const taskId = await startOn(line, [dying.tool], records);
    const answer = await followOnAnother(line, [dying.tool], records, taskId);
    expect(answer).toMatchObject({ isError: false, content: "run 2 finished" });
    expect(dying.runs).toHaveLength(2);
  });
});

describe("serveTools tasks.records fails closed", () => {
  it("a task that could not be written down is not started: the client hears the error", async () => {
    let runs = 0;
    const tool = defineTool({
      name: "job",
      description: "",
      schema: object,
      handler: () => {
        runs++;
        return ok("ran");
      },
    });
    const records: McpTaskRecords = {
      save: () => {
        throw new Error("the records are down");
      },
      load: () => undefined,
    };
    const client = await servedWithTasks("v1", [tool], closers, { tasks: { all: true, required: true, records } });
    const { messages } = await runToolCalls([call], await mcpTools(client, FAST));
    expect(must(messages[0]).isError).toBe(true);
    expect(must(messages[0]).content).toMatch(/the records are down/);
    expect(runs).toBe(0);
  });

  it("rejects bad records with a TypeError naming them", () => {
    for (const bad of [null, 1, {}, { save() {} }, { load() {} }]) {
      expect(() => serveTools({ setRequestHandler() {} } as never, [], { tasks: { records: bad as never } })).toThrow(/`tasks.records`/);
    }
  });
});
