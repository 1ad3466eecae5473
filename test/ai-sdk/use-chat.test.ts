import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, type Message, type Model } from "../../src/index.js";
import { ChatRoute, chatOn, historyProblem, settled } from "../support/use-chat.js";

const paid: string[] = [];
const pay = defineTool({
  name: "pay",
  description: "Pay",
  schema: z.object({ eur: z.number() }),
  needsApproval: true,
  handler: ({ eur }) => {
    paid.push(`${eur}`);
    return ok(`paid ${eur}`);
  },
});

/** What each request's model saw, the conversation as toolrx messages. */
const seen: Message[][] = [];

/** Pays 5 when the user asks to pay, else says what became of the last call. */
const model: Model = async function* (request) {
  seen.push([...request.messages]);
  const last = request.messages.at(-1);
  if (last?.role === "user" && last.content.startsWith("Pay")) yield { type: "tool_call", call: { id: `p${seen.length}`, name: "pay", arguments: { eur: 5 } } };
  else yield { type: "text_delta", text: last?.role === "tool" ? `Result: ${last.content}` : "OK." };
  yield { type: "finish", reason: "stop" };
};

type Approvable = { type: string; state: string; approval?: { id: string; approved?: boolean; reason?: string } };

function payParts(messages: readonly UIMessage[]): Approvable[] {
  return messages.flatMap((m) => m.parts.filter((p) => p.type === "tool-pay") as Approvable[]);
}

describe("useChat's Chat over DefaultChatTransport, against toolrx's route", () => {
  it("ends a denied call `output-denied`: ai's validator accepts the history, and the next request resumes with the denial before the model", async () => {
    seen.length = 0;
    paid.length = 0;
    const route = new ChatRoute({ model, tools: [pay], approvalSecret: "server only" });
    const chat = chatOn(route);
    await chat.sendMessage({ text: "Pay 5 please" });
    await settled(chat, route);
    const [asked] = payParts(chat.messages);
    expect(asked?.state).toBe("approval-requested");
    await chat.addToolApprovalResponse({ id: asked?.approval?.id ?? "", approved: false, reason: "not today" });
    await settled(chat, route);
    expect(payParts(chat.messages)).toEqual([
      expect.objectContaining({ state: "output-denied", approval: expect.objectContaining({ approved: false, reason: "not today" }) }),
    ]);
    expect(await historyProblem(chat.messages, [pay])).toBeUndefined();
    const denial = { role: "tool", toolCallId: "p1", name: "pay", content: '{"error":"The user denied this call to pay: not today"}', isError: true };
    expect(seen.at(-1)?.at(2)).toEqual(denial);
    // The next request: the route validates what the page posts, and the model sees the denial again.
    await chat.sendMessage({ text: "Never mind, thanks" });
    await settled(chat, route);
    expect(route.refused).toEqual([]);
    expect(chat.status).toBe("ready");
    expect(seen.at(-1)?.slice(1, 3)).toEqual([{ role: "assistant", content: "", toolCalls: [{ id: "p1", name: "pay", arguments: { eur: 5 } }] }, denial]);
    expect(paid).toEqual([]);
    expect(await historyProblem(chat.messages, [pay])).toBeUndefined();
  });

  it("sends on one Approve click after the user typed instead of deciding: the call put up again has an approval id of its own", async () => {
    seen.length = 0;
    paid.length = 0;
    const route = new ChatRoute({ model, tools: [pay], approvalSecret: "server only" });
    const chat = chatOn(route);
    await chat.sendMessage({ text: "Pay 5 please" });
    await settled(chat, route);
    await chat.sendMessage({ text: "Wait, which account?" });
    await settled(chat, route);
    // The call is put up again on the new assistant message, the one the page answers.
    const parts = payParts(chat.messages);
    expect(parts.map((p) => p.state)).toEqual(["approval-requested", "approval-requested"]);
    expect(chat.messages.at(-1)?.role).toBe("assistant");
    expect(await historyProblem(chat.messages, [pay])).toBeUndefined();
    const requests = route.posted.length;
    await chat.addToolApprovalResponse({ id: parts[1]?.approval?.id ?? "", approved: true });
    await settled(chat, route);
    // One click: the request went out, the call ran once, and its output landed on the last message.
    expect(route.posted.length).toBe(requests + 1);
    expect(paid).toEqual(["5"]);
    expect(payParts(chat.messages.slice(-1)).map((p) => p.state)).toEqual(["output-available"]);
    expect(parts.map((p) => p.approval?.id)).toEqual(["p1", "p1~2"]);
    expect(route.refused).toEqual([]);
    expect(await historyProblem(chat.messages, [pay])).toBeUndefined();
  });
});
