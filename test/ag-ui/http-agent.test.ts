import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, ok, type Message, type Model } from "../../src/index.js";
import { AgUiRoute, agentOn, judgedRun } from "../support/ag-ui-route.js";

const charge = defineTool({
  name: "charge",
  description: "Charge the card",
  schema: z.object({ eur: z.number() }),
  handler: () => {
    throw new Error("card declined");
  },
});

/** What each run's model saw. */
const seen: Message[][] = [];

const model: Model = async function* (request) {
  seen.push([...request.messages]);
  const last = request.messages.at(-1);
  if (last?.role === "user" && last.content === "Charge 5") yield { type: "tool_call", call: { id: "c1", name: "charge", arguments: { eur: 5 } } };
  else yield { type: "text_delta", text: last?.role === "tool" ? "It failed." : "OK." };
  yield { type: "finish", reason: "stop" };
};

describe("@ag-ui/client's HttpAgent against toolrx's AG-UI route", () => {
  it("keeps a failed call's error flag (metadata.isError) and sends it back: the next run's model sees the failure as a failure", async () => {
    seen.length = 0;
    const route = new AgUiRoute({ model, tools: [charge] });
    const agent = agentOn(route, "thread-1");
    agent.addMessage({ id: "u1", role: "user", content: "Charge 5" });
    await judgedRun(agent);
    const kept = agent.messages.find((m) => m.role === "tool");
    expect(kept).toMatchObject({ role: "tool", toolCallId: "c1", metadata: { isError: true } });
    agent.addMessage({ id: "u2", role: "user", content: "What happened?" });
    await judgedRun(agent);
    expect(route.refused).toEqual([]);
    const answer = seen.at(-1)?.find((m) => m.role === "tool");
    expect(answer).toMatchObject({ role: "tool", toolCallId: "c1", name: "charge", isError: true });
  });

  it("resumes a turn that both asked and waits for approval: the question goes out and comes back as the loop's question (counterexample of the sweep)", async () => {
    const paid: string[] = [];
    const pay = defineTool({
      name: "pay",
      description: "",
      schema: z.object({}),
      needsApproval: true,
      handler: (_a, ctx) => {
        paid.push(ctx.toolCall.id);
        return ok("paid");
      },
    });
    const ask = defineTool({ name: "ask", description: "", schema: z.object({}), handler: () => askUser("Which city?", { choices: ["Oslo", "Bergen"] }) });
    const heard: Message[][] = [];
    const both: Model = async function* (request) {
      heard.push([...request.messages]);
      if (heard.length === 1)
        yield* [
          { type: "tool_call" as const, call: { id: "p1", name: "pay", arguments: {} } },
          { type: "tool_call" as const, call: { id: "a1", name: "ask", arguments: {} } },
        ];
      else yield { type: "text_delta", text: "Done." };
      yield { type: "finish", reason: "stop" };
    };
    const route = new AgUiRoute({ model: both, tools: [pay, ask], approvalSecret: "server only" });
    const agent = agentOn(route, "thread-2");
    agent.addMessage({ id: "u1", role: "user", content: "Pay and ask" });
    await judgedRun(agent);
    expect(agent.pendingInterrupts.map((i) => i.id)).toEqual(["approval:p1", "ask:a1"]);
    const [approval] = agent.pendingInterrupts;
    const events = await judgedRun(agent, {
      resume: [
        { interruptId: "approval:p1", status: "resolved", payload: { approved: true }, metadata: approval?.metadata },
        { interruptId: "ask:a1", status: "resolved", payload: "Oslo" },
      ],
    });
    expect(events.at(-1)?.type).toBe("RUN_FINISHED");
    expect(paid).toEqual(["p1"]);
    // The model sees the approved call's answer, the question as the loop asked it, and the user's answer.
    expect(heard.at(-1)?.slice(2)).toEqual([
      { role: "tool", toolCallId: "a1", name: "ask", content: "<awaiting user response>", isError: false },
      { role: "tool", toolCallId: "p1", name: "pay", content: "paid", isError: false },
      { role: "assistant", content: "Which city?", metadata: { askUser: true, toolCallId: "a1", askUserOpts: { choices: ["Oslo", "Bergen"] } } },
      { role: "approval", toolCallId: "p1", approved: true, token: approval?.metadata?.token },
      { role: "user", content: "Oslo" },
    ]);
  });
});
