import { describe, expect, it, vi } from "vitest";
import { askUser, defineTool, ok, runAgent, type Message } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, text, toolCall, user } from "../../support/agent-helpers.js";
import { anyArgs } from "../../support/helpers.js";

// Issue 20, finding 9: one rule for every kind of pending work, and a decision that matches no
// pending call is an error, not silence.

const question = [user("go")];
const ask = defineTool({ name: "ask", description: "", schema: anyArgs, handler: () => askUser("Sure?") });
const guarded = () => {
  const handler = vi.fn(() => ok("done"));
  return { handler, tool: defineTool({ name: "guarded", description: "", schema: anyArgs, needsApproval: true, handler }) };
};

describe("the model is asked again only once every pending item is answered", () => {
  it("resuming after ask_user without the user's answer halts again with the same question, without asking the model", async () => {
    const model = scriptedModel([[toolCall("q1", "ask")], [text("never"), finish("stop")]]);
    const first = await runAgent({ model, tools: [ask], messages: question });
    const second = await runAgent({ model, tools: [ask], messages: first.messages });
    expect(model.requests).toHaveLength(1);
    expect(second).toEqual(first);
  });

  it("resuming after approval_required without a decision halts again, the same way", async () => {
    const { tool, handler } = guarded();
    const model = scriptedModel([[toolCall("g1", "guarded")]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    // "yes" is the user's words, not a decision: the call still waits for one.
    const second = await runAgent({ model, tools: [tool], messages: [...first.messages, user("yes")] });
    expect(handler).not.toHaveBeenCalled();
    expect(model.requests).toHaveLength(1);
    expect(second).toMatchObject({ haltedReason: "approval_required", metadata: { pendingApprovals: [{ toolCallId: "g1" }] } });
  });
});

describe("a decision that matches no pending call ends the run with an ApprovalMismatchError, and nothing runs", () => {
  it("an approval with a wrong id", async () => {
    const { tool, handler } = guarded();
    const model = scriptedModel([[toolCall("g1", "guarded")], [text("never"), finish("stop")]]);
    const first = await runAgent({ model, tools: [tool], messages: question });
    const stray: Message[] = [...first.messages, { role: "approval", toolCallId: "g9", approved: true }];
    const second = await runAgent({ model, tools: [tool], messages: stray });
    expect(handler).not.toHaveBeenCalled();
    expect(model.requests).toHaveLength(1);
    expect(second).toMatchObject({ haltedReason: "error", metadata: { error: { name: "ApprovalMismatchError", reason: "not_pending", toolCallId: "g9" } } });
    expect(second.messages).toEqual(stray);
  });

  it("an approval of a call answered after it, and of a manual call", async () => {
    const pay = defineTool({ name: "pay", description: "", schema: anyArgs, manual: true });
    const model = scriptedModel([[toolCall("p1", "pay")]]);
    const first = await runAgent({ model, tools: [pay], messages: question });
    const approved: Message = { role: "approval", toolCallId: "p1", approved: true };
    const manual = await runAgent({ model, tools: [pay], messages: [...first.messages, approved] });
    expect(manual).toMatchObject({ haltedReason: "error", metadata: { error: { reason: "not_pending", toolCallId: "p1" } } });
    const paid: Message = { role: "tool", toolCallId: "p1", name: "pay", content: "paid", isError: false };
    const late = await runAgent({ model, tools: [pay], messages: [...first.messages, approved, paid] });
    expect(late).toMatchObject({ haltedReason: "error", metadata: { error: { reason: "not_pending", metadata: { index: 2 } } } });
  });
});
