import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { askUser, defineTool, halt, ok, runAgent, type Message } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, text, toolCall, user } from "../../support/agent-helpers.js";
import { anyArgs } from "../../support/helpers.js";

// Issue 20, findings 1 and 2: a turn's pending work (questions, approvals, manual calls) reaches
// the host together, and every answer ends up right after its call.

const question = [user("Book a table and email Ana")];
const ask = defineTool({ name: "ask", description: "", schema: z.object({ q: z.string() }), handler: ({ q }) => askUser(q) });
const pay = defineTool({ name: "pay", description: "", schema: anyArgs, manual: true });
const budget = defineTool({ name: "budget", description: "", schema: anyArgs, handler: () => halt("budget", { eur: 3 }) });

function emailTool() {
  const handler = vi.fn(() => ok("sent"));
  return { handler, email: defineTool({ name: "email", description: "", schema: anyArgs, needsApproval: true, handler }) };
}

/** Ids of the tool messages and the roles in between, to read the order at a glance. */
const shape = (messages: readonly Message[]) => messages.map((m) => (m.role === "tool" ? `tool(${m.toolCallId})` : m.role));

describe("finding 1: a question and an approval in one turn", () => {
  it("the approved call's answer goes right after the turn's other answers, before the question and the user's reply", async () => {
    const { handler, email } = emailTool();
    const model = scriptedModel([
      [toolCall("q1", "ask", { q: "Friday?" }), toolCall("e1", "email")],
      [text("Done."), finish("stop")],
    ]);
    const first = await runAgent({ model, tools: [ask, email], messages: question });
    expect(first).toMatchObject({
      haltedReason: "ask_user",
      metadata: { pendingQuestion: "Friday?", pendingApprovals: [{ toolCallId: "e1", toolName: "email" }] },
    });
    const resumed: Message[] = [...first.messages, user("Friday is fine"), { role: "approval", toolCallId: "e1", approved: true }];
    const second = await runAgent({ model, tools: [ask, email], messages: resumed });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(second.haltedReason).toBe("completed");
    expect(shape(model.requests[1]?.messages ?? [])).toEqual(["user", "assistant", "tool(q1)", "tool(e1)", "assistant", "user", "approval"]);
  });
});

describe("finding 2: every pending item of a turn reaches the host", () => {
  it("two questions in one turn: both are listed and both are put to the user in one message", async () => {
    const model = scriptedModel([[toolCall("q1", "ask", { q: "Which day?" }), toolCall("q2", "ask", { q: "How many people?" })]]);
    const result = await runAgent({ model, tools: [ask], messages: question });
    expect(result).toMatchObject({
      haltedReason: "ask_user",
      metadata: {
        pendingQuestion: "Which day?",
        pendingToolCallId: "q1",
        pendingQuestions: [
          { toolCallId: "q1", question: "Which day?", opts: {} },
          { toolCallId: "q2", question: "How many people?", opts: {} },
        ],
      },
    });
    expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: "Which day?\n\nHow many people?", metadata: { askUser: true } });
  });

  it("one reply answers both questions: the model is asked again with it", async () => {
    const model = scriptedModel([
      [toolCall("q1", "ask", { q: "Which day?" }), toolCall("q2", "ask", { q: "How many?" })],
      [text("Booked."), finish("stop")],
    ]);
    const first = await runAgent({ model, tools: [ask], messages: question });
    const second = await runAgent({ model, tools: [ask], messages: [...first.messages, user("Friday, two")] });
    expect(second.haltedReason).toBe("completed");
    expect(model.requests).toHaveLength(2);
  });

  it("a handler's halt wins, and the question, the approval and the manual call of the same turn are listed with it", async () => {
    const { email } = emailTool();
    const model = scriptedModel([[toolCall("h1", "budget"), toolCall("q1", "ask", { q: "Sure?" }), toolCall("e1", "email"), toolCall("m1", "pay")]]);
    const result = await runAgent({ model, tools: [budget, ask, email, pay], messages: question });
    expect(result).toMatchObject({
      haltedReason: "budget",
      metadata: {
        haltToolCallId: "h1",
        pendingQuestions: [{ toolCallId: "q1", question: "Sure?" }],
        pendingApprovals: [{ toolCallId: "e1" }],
        manualTurnIndex: 0,
        manualToolCalls: [{ id: "m1", name: "pay" }],
      },
    });
  });

  it("answers the host appends after the user's new message are put next to their calls", async () => {
    const { handler, email } = emailTool();
    const model = scriptedModel([
      [toolCall("h1", "budget"), toolCall("e1", "email"), toolCall("m1", "pay")],
      [text("OK."), finish("stop")],
    ]);
    const first = await runAgent({ model, tools: [budget, email, pay], messages: question });
    const paid: Message = { role: "tool", toolCallId: "m1", name: "pay", content: "paid", isError: false };
    const resumed: Message[] = [...first.messages, user("go on"), { role: "approval", toolCallId: "e1", approved: true }, paid];
    const second = await runAgent({ model, tools: [budget, email, pay], messages: resumed });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(second.haltedReason).toBe("completed");
    expect(shape(model.requests[1]?.messages ?? [])).toEqual(["user", "assistant", "tool(h1)", "tool(e1)", "tool(m1)", "user", "approval"]);
  });
});
