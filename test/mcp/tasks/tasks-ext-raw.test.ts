// mcpTools against a hand-written server of the tasks extension (revision 2026-07-28): input asked
// twice through tasks/update, a plain answer, and task states, ids and poll intervals it cannot use.
import { afterEach, describe, expect, it, vi } from "vitest";
import { runAgent, runToolCalls, type ToolCall, type ToolError } from "../../../src/index.js";
import { type McpInputRequest, mcpRetryCall, mcpTools, resumeMcpInput } from "../../../src/mcp/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { must } from "../../support/must.js";
import { extTaskOf, rawExtServer } from "./ext-task-servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

const job: ToolCall = { id: "c1", name: "job", arguments: {} };
const FAST = { tasks: { maxPollInterval: 20 } };
const ask = (message: string) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] } },
});
const text = (t: string) => ({ content: [{ type: "text", text: t }] });
const onToolError = () => vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
const reasonOf = (f: ReturnType<typeof onToolError>) => must(f.mock.calls[0])[1] as ToolError;

/** A server whose task `t1` asks for a date, then a time; a poll after the first answer still shows it once. */
function askingTwice(seen: { method: string; params: Record<string, unknown> }[]) {
  const answers: Record<string, unknown> = {};
  let stale = 0;
  return rawExtServer(
    {
      call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }),
      get: () => {
        if (answers.date === undefined) return extTaskOf("t1", "input_required", { inputRequests: { date: ask("Which date?") } });
        // Eventually consistent: the answered question is still shown once after the update.
        if (stale++ === 0) return extTaskOf("t1", "input_required", { inputRequests: { date: ask("Which date?") } });
        if (answers.time === undefined) return extTaskOf("t1", "input_required", { inputRequests: { time: ask("At what time?") } });
        return extTaskOf("t1", "completed", { result: text(`booked ${JSON.stringify(answers)}`) });
      },
      update: (params) => {
        Object.assign(answers, params.inputResponses);
        return {};
      },
    },
    closers,
    seen,
  );
}

describe("mcpTools against a hand-written server of the tasks extension (revision 2026-07-28)", () => {
  it("a task that asks twice: each question is an ask_user with the task id, each answer a tasks/update, never a second tools/call", async () => {
    const seen: { method: string; params: Record<string, unknown> }[] = [];
    const client = await askingTwice(seen);
    const tools = await mcpTools(client, FAST);
    const first = await runToolCalls([job], tools);
    expect(first.halt).toMatchObject({ haltedReason: "ask_user", pendingQuestion: "Which date?" });
    const input = (first.halt as { askUserOpts: { mcp: McpInputRequest } }).askUserOpts.mcp;
    expect(input).toMatchObject({ taskId: "t1", inputRequests: { date: ask("Which date?") } });
    const date = { action: "accept", content: { value: "2026-12-01" } };
    const second = await runToolCalls([mcpRetryCall(input, { date }, "c1-date")], tools);
    expect(second.halt).toMatchObject({ haltedReason: "ask_user", pendingQuestion: "At what time?" });
    const again = (second.halt as { askUserOpts: { mcp: McpInputRequest } }).askUserOpts.mcp;
    expect(Object.keys(again.inputRequests)).toEqual(["time"]);
    const time = { action: "accept", content: { value: "19:30" } };
    const third = await runToolCalls([mcpRetryCall(again, { time }, "c1-time")], tools);
    expect(must(third.messages[0]).content).toBe(`booked ${JSON.stringify({ date, time })}`);
    expect(seen.filter((s) => s.method === "tools/call")).toHaveLength(1);
    expect(seen.filter((s) => s.method === "tasks/update").map((s) => s.params.inputResponses)).toEqual([{ date }, { time }]);
  });

  it("in the agent loop, resumeMcpInput answers each of the task's questions: one tools/call, the result in place of the question", async () => {
    const seen: { method: string; params: Record<string, unknown> }[] = [];
    const tools = await mcpTools(await askingTwice(seen), FAST);
    const model = scriptedModel([
      [
        { type: "tool_call", call: job },
        { type: "finish", reason: "tool_calls" },
      ],
      [
        { type: "text_delta", text: "Booked." },
        { type: "finish", reason: "stop" },
      ],
    ]);
    const date = { action: "accept", content: { value: "2026-12-01" } };
    const time = { action: "accept", content: { value: "19:30" } };
    const questions: string[] = [];
    let result = await runAgent({ model, tools, messages: [{ role: "user", content: "Book it" }] });
    while (result.haltedReason === "ask_user" && questions.length < 3) {
      questions.push(String(result.metadata.pendingQuestion));
      const resumed = await resumeMcpInput(result, questions.length === 1 ? { date } : { time }, tools);
      result = resumed.halted ?? (await runAgent({ model, tools, messages: resumed.messages }));
    }
    expect(questions).toEqual(["Which date?", "At what time?"]);
    expect(result.haltedReason).toBe("completed");
    expect(result.messages).toContainEqual({
      role: "tool",
      toolCallId: "c1",
      name: "job",
      content: `booked ${JSON.stringify({ date, time })}`,
      isError: false,
    });
    expect(seen.filter((s) => s.method === "tools/call")).toHaveLength(1);
  });

  it("a server that answers a plain result at once: that is the answer", async () => {
    const client = await rawExtServer({ call: () => text("right away") }, closers);
    const { messages } = await runToolCalls([job], await mcpTools(client, FAST));
    expect(must(messages[0])).toMatchObject({ content: "right away", isError: false });
  });

  it("a failed task (a JSON-RPC error during the call) is handler_raised with the server's error", async () => {
    const client = await rawExtServer(
      {
        call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }),
        get: () => extTaskOf("t1", "failed", { error: { code: -32603, message: "API rate limit exceeded" } }),
      },
      closers,
    );
    const policy = onToolError();
    await runToolCalls([job], await mcpTools(client, FAST), { onToolError: policy });
    expect(reasonOf(policy)).toMatchObject({ reason: "handler_raised", message: "MCP task t1 of tool job failed: API rate limit exceeded" });
  });

  it.each([
    ["a task handle without a taskId string", { call: () => ({ resultType: "task", ...extTaskOf(7, "working") }) }, /no taskId string/],
    ["a task handle with an empty taskId", { call: () => ({ resultType: "task", ...extTaskOf("", "working") }) }, /no taskId string/],
    [
      "a status no revision has",
      { call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }), get: () => extTaskOf("t1", "exploded") },
      /unknown status "exploded"/,
    ],
    [
      "another task's state",
      { call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }), get: () => extTaskOf("other", "working") },
      /asked for task "t1", the server described task "other"/,
    ],
    [
      "a completed task without its result",
      { call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }), get: () => extTaskOf("t1", "completed") },
      /task "t1" is completed without a result object/,
    ],
    [
      "an input_required task without its requests",
      { call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }), get: () => extTaskOf("t1", "input_required") },
      /task "t1" is input_required without an inputRequests object/,
    ],
    ["a resultType no revision has", { call: () => ({ resultType: "later", ...text("?") }) }, /unknown resultType "later"/],
  ])("%s is invalid_return, never followed", async (_name, handlers, message) => {
    const client = await rawExtServer(handlers, closers);
    const policy = onToolError();
    await runToolCalls([job], await mcpTools(client, FAST), { onToolError: policy });
    expect(reasonOf(policy).reason).toBe("invalid_return");
    expect(reasonOf(policy).message).toMatch(message);
  });

  it("a task id the server does not know is handler_raised with its error", async () => {
    const client = await rawExtServer(
      {
        call: () => ({ resultType: "task", ...extTaskOf("t1", "working") }),
        get: () => {
          throw Object.assign(new Error("Failed to retrieve task: Task not found"), { code: -32602 });
        },
      },
      closers,
    );
    const policy = onToolError();
    await runToolCalls([job], await mcpTools(client, FAST), { onToolError: policy });
    expect(reasonOf(policy)).toMatchObject({ reason: "handler_raised", message: expect.stringMatching(/MCP task t1 of tool job failed: .*Task not found/) });
  });

  it.each([
    ["negative", -5],
    ["not a number", "soon"],
    ["not an integer", 12.5],
    ["an hour, past maxPollInterval", 3_600_000],
  ])("a pollIntervalMs that is %s is not followed blindly: polling goes on at most every maxPollInterval", async (_name, pollIntervalMs) => {
    let polls = 0;
    const client = await rawExtServer(
      {
        call: () => ({ resultType: "task", ...extTaskOf("t1", "working", { pollIntervalMs }) }),
        get: () => (++polls < 3 ? extTaskOf("t1", "working", { pollIntervalMs }) : extTaskOf("t1", "completed", { pollIntervalMs, result: text("done") })),
      },
      closers,
    );
    const { messages } = await runToolCalls([job], await mcpTools(client, FAST), { toolTimeout: 20_000 });
    expect(must(messages[0])).toMatchObject({ content: "done", isError: false });
    expect(polls).toBe(3);
  });
});
