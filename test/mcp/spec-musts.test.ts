// The spec's MUSTs on tasks and listing (issue 43, item 6), each judged by the SDK's own code or
// the spec's words: a result for another task, a task result that is not a CallToolResult, a plain
// call to a task-required tool, a cancel for an answered tools/list, and a server's zero pollInterval.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, ok, runToolCalls, type ToolCall, type ToolError } from "../../src/index.js";
import { mcpTools } from "../../src/mcp/index.js";
import { requester } from "../../src/mcp/wire/task-requests.js";
import { must } from "../support/must.js";
import { extTaskOf, rawExtServer } from "./tasks/ext-task-servers.js";
import { buildServer, LINES, sleep, text } from "./support/servers.js";
import { rawTaskServer, servedWithTasks, taskOf } from "./tasks/task-servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

const job: ToolCall = { id: "c-job", name: "job", arguments: {} };
const FAST = { tasks: { maxPollInterval: 20 } };
const RELATED = "io.modelcontextprotocol/related-task";
const onToolError = () => vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
const reasonOf = (f: ReturnType<typeof onToolError>) => must(f.mock.calls[0])[1] as ToolError;
/** A task `t1` that is already over, so that `tasks/result` answers at once with `result`. */
const endedWith = (result: Record<string, unknown>) => ({
  call: async () => ({ task: taskOf("t1", "working"), content: [] }),
  get: async () => taskOf("t1", "completed"),
  result: async () => result,
});

describe.each(LINES)("mcpTools holds task servers to the spec (SDK %s)", (line) => {
  it("a tasks/result whose related-task names another task is refused as invalid_return, not taken as this call's", async () => {
    const client = await rawTaskServer(line, endedWith({ ...text("the other task's result"), _meta: { [RELATED]: { taskId: "t2" } } }), closers);
    const policy = onToolError();
    const { messages } = await runToolCalls([job], await mcpTools(client, FAST), { onToolError: policy });
    expect(must(messages[0]).isError).toBe(true);
    expect(reasonOf(policy)).toMatchObject({ reason: "invalid_return", message: expect.stringMatching(/task "t1" names another task, "t2"/) });
  });

  it("a tasks/result that names its own task is the call's answer", async () => {
    const client = await rawTaskServer(line, endedWith({ ...text("mine"), _meta: { [RELATED]: { taskId: "t1" } } }), closers);
    const { messages } = await runToolCalls([job], await mcpTools(client, FAST));
    expect(must(messages[0])).toMatchObject({ content: "mine", isError: false });
  });

  it("a task result that is not a CallToolResult is invalid_return with its problems listed, as a plain call's is", async () => {
    const bad = { content: "a string, not blocks" };
    // The SDK's own schema is the judge of what a CallToolResult is.
    expect(CallToolResultSchema.safeParse(bad).success).toBe(false);
    const problem = "content: Invalid input: expected array, received string";
    const plain = await rawTaskServer(line, { call: async () => bad }, closers, "forbidden");
    const plainPolicy = onToolError();
    await runToolCalls([job], await mcpTools(plain), { onToolError: plainPolicy });
    expect(reasonOf(plainPolicy)).toMatchObject({ reason: "invalid_return", message: expect.stringContaining(problem) });
    const task = await rawTaskServer(line, endedWith(bad), closers);
    const taskPolicy = onToolError();
    await runToolCalls([job], await mcpTools(task, FAST), { onToolError: taskPolicy });
    expect(reasonOf(taskPolicy)).toMatchObject({ reason: "invalid_return", message: expect.stringContaining(problem) });
  });

  it("a block the SDK would refuse (an image without its data) is listed too", async () => {
    const bad = { content: [{ type: "image", mimeType: "image/png" }] };
    expect(CallToolResultSchema.safeParse(bad).success).toBe(false);
    const client = await rawTaskServer(line, endedWith(bad), closers);
    const policy = onToolError();
    await runToolCalls([job], await mcpTools(client, FAST), { onToolError: policy });
    expect(reasonOf(policy)).toMatchObject({ reason: "invalid_return", message: expect.stringContaining("content.0.data: Invalid input") });
  });

  it("a server's pollInterval 0 is floored: a task that runs 1.5 s is polled a few times, not flooded", async () => {
    let polls = 0;
    const started = Date.now();
    const client = await rawTaskServer(
      line,
      {
        call: async () => ({ task: { ...taskOf("t1", "working"), pollInterval: 0 }, content: [] }),
        get: async () => {
          polls++;
          return { ...taskOf("t1", Date.now() - started < 1_500 ? "working" : "completed"), pollInterval: 0 };
        },
        result: async () => text("done"),
      },
      closers,
    );
    const { messages } = await runToolCalls([job], await mcpTools(client), { toolTimeout: 30_000 });
    expect(must(messages[0]).content).toBe("done");
    // At the 100 ms floor, 1.5 s is about 15 polls (fewer on a loaded machine); unfloored, hundreds.
    expect(polls).toBeGreaterThan(1);
    expect(polls).toBeLessThanOrEqual(30);
  });
});

describe("mcpTools against a tasks-extension server (revision 2026-07-28)", () => {
  it("a pollIntervalMs of 0 is floored as well: a task that runs 1.5 s is polled a few times, not flooded", async () => {
    let polls = 0;
    const started = Date.now();
    const client = await rawExtServer(
      {
        call: () => ({ resultType: "task", ...extTaskOf("t1", "working", { pollIntervalMs: 0 }) }),
        get: () => {
          polls++;
          const over = Date.now() - started >= 1_500;
          return extTaskOf("t1", over ? "completed" : "working", over ? { pollIntervalMs: 0, result: text("done") } : { pollIntervalMs: 0 });
        },
      },
      closers,
    );
    const { messages } = await runToolCalls([job], await mcpTools(client), { toolTimeout: 30_000 });
    expect(must(messages[0]).content).toBe("done");
    expect(polls).toBeGreaterThan(1);
    expect(polls).toBeLessThanOrEqual(30);
  });
});

describe.each(LINES)("serveTools holds to the spec (SDK %s)", (line) => {
  it('answers a plain tools/call to a taskSupport: "required" tool with -32601, and the tool does not run', async () => {
    let runs = 0;
    const long = defineTool({
      name: "long",
      description: "",
      schema: { type: "object", properties: {} },
      handler: () => {
        runs++;
        return ok("ran");
      },
    });
    const client = await servedWithTasks(line, [long], closers, { tasks: { all: true, required: true } });
    const request = must(requester(client));
    await expect(request("tools/call", { name: "long", arguments: {} }, { signal: new AbortController().signal })).rejects.toMatchObject({ code: -32601 });
    expect(runs).toBe(0);
    // Called as a task, as the listing says, it runs.
    const tools = await mcpTools(client, FAST);
    const { messages } = await runToolCalls([{ id: "c1", name: "long", arguments: {} }], tools);
    expect(must(messages[0]).content).toBe("ran");
    expect(runs).toBe(1);
  });
});

describe.each(LINES)("mcpTools lists without cancelling what was answered (SDK %s)", (line) => {
  it("sends no notifications/cancelled for its own tools/list pages once they are answered", async () => {
    const server = buildServer(line, { tools: [{ name: "a" }, { name: "b" }, { name: "c" }], pageSize: 2 }, { listCalls: [], cancelled: [] });
    const [clientSide, serverSide] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
    await server.connect(serverSide as never);
    // Every message the client sends, as the server would receive it.
    const sent: { method?: string }[] = [];
    const send = clientSide.send.bind(clientSide) as (message: unknown, options?: unknown) => Promise<void>;
    clientSide.send = ((message: { method?: string }, options?: unknown) => {
      sent.push(message);
      return send(message, options);
    }) as never;
    const client = line === "v1" ? new ClientV1({ name: "c", version: "1.0.0" }) : new ClientV2({ name: "c", version: "1.0.0" });
    await client.connect(clientSide as never);
    closers.push(
      () => client.close(),
      () => server.close(),
    );
    const tools = await mcpTools(client);
    await sleep(50);
    expect(tools.map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(sent.filter((m) => m.method === "tools/list")).toHaveLength(2);
    expect(sent.filter((m) => m.method === "notifications/cancelled")).toEqual([]);
  });
});
