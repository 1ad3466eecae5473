import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentTool,
  approve,
  askUser,
  defineTool,
  halt,
  runAgent,
  type HandlerResult,
  type Message,
  type PendingApproval,
  type SubagentState,
  type Tool,
} from "../../src/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { codeMode } from "../../src/code-mode/index.js";
import { countedTools } from "./helpers.js";

const user = (content: string): Message => ({ role: "user", content });
const call = (id: string, name: string, args: Record<string, unknown>) => ({ type: "tool_call" as const, call: { id, name, arguments: args } });
const turn = (id: string, script: string) => [call(id, "run_script", { script }), { type: "finish" as const, reason: "tool_calls" as const }];
const stop = [
  { type: "text_delta" as const, text: "done" },
  { type: "finish" as const, reason: "stop" as const },
];
const subagentOf = (run: { metadata: unknown }) => (run.metadata as { askUserOpts?: { subagent?: SubagentState } }).askUserOpts?.subagent;
const replyTo = (run: { messages: readonly Message[] }, id: string): unknown => {
  const m = run.messages.find((x) => x.role === "tool" && x.toolCallId === id);
  return m?.role === "tool" ? JSON.parse(m.content) : undefined;
};

describe("codeMode nested ask_user", () => {
  const { runs, tools, clarify } = countedTools({ choices: ["Ana", "Bo"] });
  const code = codeMode({ tools: [...tools, clarify] });
  afterAll(() => code.close());
  const options = { tools: [code.tool], sessionId: "conv-ask" };

  it("halts the agent run with the nested question, and the user's answer is the asking call's value on resume", async () => {
    const script = `
      const a = await tools.add({ a: 1, b: 2 });
      const who = await tools.clarify({ q: "Who gets it?" });
      const b = await tools.add({ a, b: who.length });
      return { a, who, b };
    `;
    const model = scriptedModel([turn("c1", script), stop]);
    const first = await runAgent({ ...options, model, messages: [user("pay someone")] });
    expect(first.haltedReason).toBe("ask_user");
    expect(first.metadata).toMatchObject({ pendingQuestion: "Who gets it?", pendingToolCallId: "c1" });
    expect(subagentOf(first)).toMatchObject({
      tool: "run_script",
      haltedReason: "ask_user",
      metadata: { pendingQuestion: "Who gets it?", pendingToolCallId: "c1.1", askUserOpts: { choices: ["Ana", "Bo"] } },
    });
    expect(runs).toEqual({ add: 1, clarify: 1 });

    const second = await runAgent({ ...options, model, messages: [...first.messages, user("Ana")] });
    expect(second.haltedReason).toBe("completed");
    expect(replyTo(second, "c1-resume1")).toEqual({ a: 3, who: "Ana", b: 6 });
    expect(runs).toEqual({ add: 2, clarify: 1 }); // the first add and the question were answered from the record
  });

  it("puts the script's first question when two calls ask at once; the other asks again on resume", async () => {
    const script = 'const [x, y] = await Promise.all([tools.clarify({ q: "first?" }), tools.clarify({ q: "second?" })]); return [x, y];';
    const model = scriptedModel([turn("c2", script), stop]);
    const first = await runAgent({ ...options, model, messages: [user("two questions")] });
    expect(first.metadata).toMatchObject({ pendingQuestion: "first?" });
    const second = await runAgent({ ...options, model, messages: [...first.messages, user("one")] });
    expect(second.metadata).toMatchObject({ pendingQuestion: "second?" });
    const third = await runAgent({ ...options, model, messages: [...second.messages, user("two")] });
    expect(third.haltedReason).toBe("completed");
    expect(replyTo(third, "c2-resume2")).toEqual(["one", "two"]);
  });

  it("lists the script's pending approvals with its question, and one resume answers both", async () => {
    const approvals = codeMode({ tools: [...tools, clarify], run: { approvalSecret: "server secret" } });
    try {
      const script = 'const [t, who] = await Promise.all([tools.transfer({ to: "Bo", eur: 5 }), tools.clarify({ q: "Why?" })]); return [t, who];';
      const model = scriptedModel([turn("c4", script), stop]);
      const agent = { tools: [approvals.tool], approvalSecret: "server secret", sessionId: "conv-mixed" };
      const transfers = runs.transfer ?? 0;
      const first = await runAgent({ ...agent, model, messages: [user("pay Bo")] });
      const state = subagentOf(first);
      expect(state).toMatchObject({ haltedReason: "ask_user", metadata: { pendingQuestion: "Why?", pendingApprovals: [{ toolCallId: "c4.0" }] } });
      const pending = state?.metadata.pendingApprovals as PendingApproval[];
      const second = await runAgent({ ...agent, model, messages: [...first.messages, ...pending.map((p) => approve(p)), user("rent")] });
      expect(second.haltedReason).toBe("completed");
      expect(replyTo(second, "c4-resume1")).toEqual([{ sent: 5, to: "Bo" }, "rent"]);
      expect((runs.transfer ?? 0) - transfers).toBe(1);
    } finally {
      await approvals.close();
    }
  });

  it("resumes a nested subagent that asked as its continuation, with the user's answer in its conversation", async () => {
    let subRequests = 0;
    const subModel = scriptedModel([
      [call("s1", "clarify", { q: "Sea or river?" })],
      (request) => {
        subRequests++;
        const last = request.messages.at(-1);
        return [{ type: "text_delta", text: `otters of the ${last?.role === "user" ? last.content : "?"}` }];
      },
    ]);
    const research = agentTool({
      name: "research",
      description: "Research a topic",
      schema: z.object({ topic: z.string() }),
      agent: ({ topic }) => ({ model: subModel, tools: [clarify], messages: [user(`Research ${topic}`)] }),
    });
    const nested = codeMode({ tools: [research, ...tools] });
    try {
      const script = 'const n = await tools.add({ a: 40, b: 2 }); const r = await tools.research({ topic: "otters" }); return [n, r];';
      const model = scriptedModel([turn("c3", script), stop]);
      const addsBefore = runs.add ?? 0;
      const first = await runAgent({ tools: [nested.tool], model, messages: [user("otters?")] });
      expect(first.metadata).toMatchObject({ pendingQuestion: "Sea or river?" });
      expect(subagentOf(first)?.metadata).toMatchObject({
        pendingToolCallId: "c3.1",
        askUserOpts: { subagent: { tool: "research", haltedReason: "ask_user" } },
      });
      const second = await runAgent({ tools: [nested.tool], model, messages: [...first.messages, user("river")] });
      expect(second.haltedReason).toBe("completed");
      expect(replyTo(second, "c3-resume1")).toEqual([42, "otters of the river"]);
      expect(subRequests).toBe(1);
      expect((runs.add ?? 0) - addsBefore).toBe(1);
    } finally {
      await nested.close();
    }
  });
});

describe("codeMode nested handler halt", () => {
  const { runs, tools } = countedTools();
  const budget = defineTool({
    name: "budget",
    description: "Stop when the budget is spent",
    schema: z.object({}),
    handler: () => halt("budget", { left: 0 }),
  });
  // Asks after a while, so that the halting call runs beside it.
  const ask = defineTool({
    name: "ask",
    description: "",
    schema: z.object({}),
    handler: () => new Promise<HandlerResult>((resolve) => setTimeout(() => resolve(askUser("Sure?")), 20)),
  });
  const code = codeMode({ tools: [...tools, budget, ask] });
  afterAll(() => code.close());

  it("wins over a question of the same script: nothing could resume past it", async () => {
    const script = "await Promise.all([tools.ask({}), tools.budget({})]); return 'went on';";
    const run = await runAgent<"budget">({ tools: [code.tool], model: scriptedModel([turn("h2", script)]), messages: [user("go")] });
    expect(run.haltedReason).toBe("budget");
  });

  it("halts the agent run with the handler's reason and result, as a subagent's handler halt does", async () => {
    const script =
      "const a = await tools.add({ a: 1, b: 1 }); try { await tools.budget({}); } catch (e) { return 'caught'; } return await tools.add({ a, b: 1 });";
    const viaCode = await runAgent<"budget">({ tools: [code.tool], model: scriptedModel([turn("h1", script)]), messages: [user("go")] });
    expect(viaCode.haltedReason).toBe("budget");
    expect(viaCode.metadata).toMatchObject({ haltToolCallId: "h1", haltResult: { left: 0 } });
    expect(runs).toEqual({ add: 1 });
    expect(replyTo(viaCode, "h1")).toEqual({ left: 0 });

    const sub: Tool = agentTool({
      name: "sub",
      description: "",
      schema: z.object({}),
      agent: () => ({ model: scriptedModel([[call("b1", "budget", {})]]), tools: [budget], messages: [user("go")] }),
    });
    const viaSubagent = await runAgent<"budget">({ tools: [sub], model: scriptedModel([[call("h1", "sub", {})]]), messages: [user("go")] });
    expect({ reason: viaSubagent.haltedReason, metadata: viaSubagent.metadata }).toEqual({ reason: viaCode.haltedReason, metadata: viaCode.metadata });
  });
});
