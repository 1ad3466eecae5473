import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type Message, type Model } from "../../src/index.js";
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
});
