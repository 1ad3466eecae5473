import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { askUser, defineTool, halt, ok, runAgent } from "../../../src/index.js";
import type { ApprovalContext } from "../../../src/tool/approval/needs-approval.js";
import type { Message } from "../../../src/tool/message.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { callOf, finish, text, toolCall, user } from "../../support/agent-helpers.js";
import { anyArgs } from "../../support/helpers.js";

const question = [user("book it")];
const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });

describe("resume after ask_user", () => {
  it("the host appends the answer and calls again: the model sees the question and the answer", async () => {
    const confirm = defineTool({ name: "confirm", description: "", schema: anyArgs, handler: () => askUser("Sure?") });
    const model = scriptedModel([[toolCall("c1", "confirm")], [text("Booked."), finish("stop")]]);
    const first = await runAgent({ model, tools: [confirm], messages: question });
    expect(first.haltedReason).toBe("ask_user");
    const second = await runAgent({ model, tools: [confirm], messages: [...first.messages, user("yes")] });
    expect(second.haltedReason).toBe("completed");
    expect(model.requests[1]?.messages.slice(-3)).toEqual([
      { role: "tool", toolCallId: "c1", name: "confirm", content: "<awaiting user response>", isError: false },
      { role: "assistant", content: "Sure?", metadata: { askUser: true, toolCallId: "c1" } },
      user("yes"),
    ]);
  });
});

describe("resume after manual_tool_calls", () => {
  const pay = defineTool({ name: "pay", description: "", schema: anyArgs, manual: true });

  it("the host appends the manual results and calls again: the model goes on from them", async () => {
    const model = scriptedModel([[toolCall("c1", "pay", { eur: 5 })], [text("Paid."), finish("stop")]]);
    const first = await runAgent({ model, tools: [pay], messages: question });
    expect(first.haltedReason).toBe("manual_tool_calls");
    const answer: Message = { role: "tool", toolCallId: "c1", name: "pay", content: '{"paid":5}', isError: false };
    const second = await runAgent({ model, tools: [pay], messages: [...first.messages, answer] });
    expect(second.haltedReason).toBe("completed");
    expect(model.requests[1]?.messages.at(-1)).toEqual(answer);
  });

  it("halts again, without asking the model, while a manual call is still unanswered", async () => {
    const model = scriptedModel([[toolCall("c1", "pay"), toolCall("c2", "pay")]]);
    const first = await runAgent({ model, tools: [pay], messages: question });
    const partial: Message = { role: "tool", toolCallId: "c1", name: "pay", content: "ok", isError: false };
    const second = await runAgent({ model, tools: [pay], messages: [...first.messages, partial] });
    expect(model.requests).toHaveLength(1);
    expect(second).toMatchObject({ haltedReason: "manual_tool_calls", metadata: { manualTurnIndex: 0, manualToolCalls: [callOf("c2", "pay")] } });
  });
});

describe("approval", () => {
  function transferTool() {
    const handler = vi.fn(({ eur }: { eur: number }) => ok({ sent: eur }));
    const tool = defineTool({ name: "transfer", description: "", schema: z.object({ eur: z.number() }), needsApproval: true, handler });
    return { tool, handler };
  }

  it("does not run a call that needs approval: it halts with approval_required and the pending calls; siblings run", async () => {
    const { tool, handler } = transferTool();
    const model = scriptedModel([[toolCall("c1", "transfer", { eur: 50 }), toolCall("c2", "echo", { text: "a" })]]);
    const result = await runAgent({ model, tools: [tool, echo], messages: question });
    expect(handler).not.toHaveBeenCalled();
    expect(result).toMatchObject({
      haltedReason: "approval_required",
      metadata: { pendingApprovals: [{ toolCallId: "c1", toolName: "transfer", arguments: { eur: 50 } }] },
    });
    expect(result.messages.slice(2)).toEqual([{ role: "tool", toolCallId: "c2", name: "echo", content: "a", isError: false }]);
  });

  it("an approved call runs exactly once on resume, before the model is asked again", async () => {
    const { tool, handler } = transferTool();
    const model = scriptedModel([[toolCall("c1", "transfer", { eur: 50 })], [text("Sent."), finish("stop")], [text("Anything else?"), finish("stop")]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    const approved: Message[] = [...first.messages, { role: "approval", toolCallId: "c1", approved: true }];
    const second = await runAgent({ model, tools: [tool], messages: approved });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(second.haltedReason).toBe("completed");
    const result: Message = { role: "tool", toolCallId: "c1", name: "transfer", content: '{"sent":50}', isError: false };
    // The model's second request already has the result, next to its call: it was not asked before the call ran.
    expect(model.requests[1]?.messages.slice(-3)).toEqual([first.messages[1], result, { role: "approval", toolCallId: "c1", approved: true }]);
    // The same approval sent again with the answered conversation runs nothing.
    await runAgent({ model, tools: [tool], messages: [...second.messages, user("thanks")] });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("an approved call's result stays in the conversation even when the model then fails, so it never runs twice", async () => {
    const { tool, handler } = transferTool();
    const failure = new Error("overloaded");
    const model = scriptedModel([[toolCall("c1", "transfer", { eur: 50 })], [finish("error", failure)], [text("Sent."), finish("stop")]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    const second = await runAgent({ model, tools: [tool], messages: [...first.messages, { role: "approval", toolCallId: "c1", approved: true }] });
    expect(second).toMatchObject({ haltedReason: "error", metadata: { error: failure } });
    expect(second.messages.at(-2)).toEqual({ role: "tool", toolCallId: "c1", name: "transfer", content: '{"sent":50}', isError: false });
    const third = await runAgent({ model, tools: [tool], messages: second.messages });
    expect(third.haltedReason).toBe("completed");
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("a denied call is answered with a text the model can read, and never runs", async () => {
    const { tool, handler } = transferTool();
    const model = scriptedModel([[toolCall("c1", "transfer", { eur: 50 })], [text("OK, not sent."), finish("stop")]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    const second = await runAgent({
      model,
      tools: [tool],
      messages: [...first.messages, { role: "approval", toolCallId: "c1", approved: false, reason: "too much" }],
    });
    expect(handler).not.toHaveBeenCalled();
    expect(second.haltedReason).toBe("completed");
    expect(model.requests[1]?.messages.at(-2)).toEqual({
      role: "tool",
      toolCallId: "c1",
      name: "transfer",
      content: '{"error":"The user denied this call to transfer: too much"}',
      isError: true,
    });
  });

  it("a denial stands even when the rule would no longer ask: the rule is not asked again on resume", async () => {
    let strict = true;
    const handler = vi.fn(() => ok("sent"));
    const tool = defineTool({ name: "transfer", description: "", schema: anyArgs, needsApproval: () => strict, handler });
    const model = scriptedModel([[toolCall("c1", "transfer")], [finish("stop")]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    strict = false;
    await runAgent({ model, tools: [tool], messages: [...first.messages, { role: "approval", toolCallId: "c1", approved: false }] });
    expect(handler).not.toHaveBeenCalled();
  });

  it("a decision placed before the call it names does not count: the call is still pending", async () => {
    const { tool, handler } = transferTool();
    const model = scriptedModel([[toolCall("c1", "transfer", { eur: 50 })], [toolCall("c2", "transfer", { eur: 9 })]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    const early: Message[] = [...first.messages.slice(0, 1), { role: "approval", toolCallId: "c1", approved: true }, ...first.messages.slice(1)];
    const second = await runAgent({ model, tools: [tool], messages: early });
    expect(handler).not.toHaveBeenCalled();
    expect(model.requests).toHaveLength(1);
    expect(second).toMatchObject({ haltedReason: "approval_required", metadata: { pendingApprovals: [{ toolCallId: "c1" }] } });
  });

  it("an approved call that halts or asks the user ends the resumed run before the model is asked", async () => {
    const guarded = defineTool({ name: "guarded", description: "", schema: anyArgs, needsApproval: true, handler: () => halt("limit", 1) });
    const model = scriptedModel([[toolCall("c1", "guarded")]]);
    const first = await runAgent({ model, tools: [guarded], messages: question });
    const second = await runAgent({ model, tools: [guarded], messages: [...first.messages, { role: "approval", toolCallId: "c1", approved: true }] });
    expect(model.requests).toHaveLength(1);
    expect(second).toMatchObject({ haltedReason: "limit", metadata: { haltToolCallId: "c1", haltResult: 1 } });
  });

  it("a function rule gets the validated arguments (defaults applied) and the call, and may answer asynchronously", async () => {
    const seen: [unknown, ApprovalContext][] = [];
    const handler = vi.fn(() => ok("sent"));
    const tool = defineTool({
      name: "transfer",
      description: "",
      schema: z.object({ eur: z.number(), currency: z.string().default("EUR") }),
      needsApproval: async (args, ctx) => {
        seen.push([args, ctx]);
        return args.eur > 100;
      },
      handler,
    });
    const model = scriptedModel([
      [toolCall("small", "transfer", { eur: 5 }), toolCall("big", "transfer", { eur: 500 }), toolCall("bad", "transfer", { eur: "x" })],
    ]);
    const result = await runAgent({ model, tools: [tool], messages: question, context: { user: "u1" } });
    expect(seen.map(([args]) => args)).toEqual([
      { eur: 5, currency: "EUR" },
      { eur: 500, currency: "EUR" },
    ]);
    expect(seen[0]?.[1]).toMatchObject({ toolCall: callOf("small", "transfer", { eur: 5 }), context: { user: "u1" }, messages: question });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(result).toMatchObject({ haltedReason: "approval_required", metadata: { pendingApprovals: [{ toolCallId: "big" }] } });
    // Invalid arguments are never asked about: the model hears what was wrong. Messages keep the model's order.
    expect(result.messages.slice(2).map((m) => (m as { toolCallId: string }).toolCallId)).toEqual(["small", "bad"]);
  });

  it("a rule that throws ends the loop with error", async () => {
    const bug = new Error("rule bug");
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      needsApproval: () => {
        throw bug;
      },
    });
    const result = await runAgent({ model: scriptedModel([[toolCall("c1", "t")]]), tools: [tool], messages: question });
    expect(result).toEqual({ haltedReason: "error", metadata: { error: bug }, messages: question });
  });

  it("stays out of the tool's JSON", () => {
    const { tool } = transferTool();
    expect(Object.keys(JSON.parse(JSON.stringify(tool)) as object)).toEqual(["name", "description", "schema", "manual", "metadata"]);
  });

  it("a handler cannot fake the loop's approval halt: approval_required is a reserved reason", async () => {
    const faker = defineTool({ name: "faker", description: "", schema: anyArgs, handler: () => halt("approval_required", {}) });
    const result = await runAgent({ model: scriptedModel([[toolCall("c1", "faker")], [finish("stop")]]), tools: [faker], messages: question });
    expect(result.haltedReason).toBe("completed");
    expect((result.messages[2] as { content: string }).content).toMatch(/reserved/);
  });
});
