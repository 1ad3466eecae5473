import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, inputRequired, Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { runAgent, type AgentResult, type Message, type Model, type Tool } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { mcpTools, resumeMcpInput } from "../../../src/mcp/index.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const form = (message: string, field: string) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] } },
});

/** A 2.x server on revision 2026-07-28 that asks twice: first the date, then (with its state) the time. */
async function twoRoundServer(seen: { state?: unknown; answers?: unknown }[]): Promise<Client> {
  const handler = createMcpHandler(() => {
    const server = new Server({ name: "booking", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({
      tools: [{ name: "book", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    }));
    server.setRequestHandler("tools/call", (req, ctx) => {
      const answers = ctx.mcpReq.inputResponses as Record<string, { content: Record<string, string> }> | undefined;
      const state = ctx.mcpReq.requestState();
      seen.push({ state, answers });
      // Each round's answers come alone; what earlier rounds settled comes back in the state.
      if (answers?.time !== undefined && typeof state === "string" && state.startsWith("date=")) {
        return { content: [{ type: "text", text: `booked ${String(req.params.arguments?.city)} at ${answers.time.content.time} (${state})` }] };
      }
      if (answers?.when !== undefined && state === "asked-date") {
        const date = answers.when.content.date;
        return inputRequired({ inputRequests: { time: form(`At what time on ${date}?`, "time") }, requestState: `date=${date}` } as never);
      }
      return inputRequired({ inputRequests: { when: form("Which date?", "date") }, requestState: "asked-date" } as never);
    });
    return server;
  });
  const client = new Client(
    { name: "toolrx-test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
  );
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  await client.connect(new StreamableHTTPClientTransport(new URL("http://booking.test/mcp"), { fetch }));
  closers.push(
    () => client.close(),
    () => handler.close(),
  );
  return client;
}

/** The docs' runWithMcpInput (docs/mcp.md), as written there. */
async function runWithMcpInput(
  model: Model,
  tools: Tool[],
  askTheUser: (question: string) => Promise<Record<string, unknown>>,
  messages: readonly Message[],
): Promise<AgentResult> {
  let result = await runAgent({ model, tools, messages });
  while (result.haltedReason === "ask_user" && "mcp" in (result.metadata.askUserOpts as object)) {
    const resumed = await resumeMcpInput(result, await askTheUser(String(result.metadata.pendingQuestion)), tools);
    result = resumed.halted ?? (await runAgent({ model, tools, messages: resumed.messages }));
  }
  return result;
}

describe("a server that asks for input twice (SDK v2, revision 2026-07-28)", () => {
  it("runWithMcpInput answers both rounds; round 2 carries round 2's question and state, not round 1's", async () => {
    const seen: { state?: unknown; answers?: unknown }[] = [];
    const tools = await mcpTools({ booking: await twoRoundServer(seen) });
    const model = scriptedModel([
      [
        { type: "tool_call", call: { id: "c1", name: "booking__book", arguments: { city: "Oslo" } } },
        { type: "finish", reason: "tool_calls" },
      ],
      [
        { type: "text_delta", text: "Booked." },
        { type: "finish", reason: "stop" },
      ],
    ]);
    const questions: string[] = [];
    const askTheUser = async (question: string) => {
      questions.push(question);
      if (questions.length > 3) throw new Error(`asked too often: ${questions.join(" | ")}`);
      return questions.length === 1
        ? { when: { action: "accept", content: { date: "2026-12-01" } } }
        : { time: { action: "accept", content: { time: "19:30" } } };
    };
    const result = await runWithMcpInput(model, tools, askTheUser, [{ role: "user", content: "Book Oslo" }]);

    expect(questions).toEqual(["Which date?", "At what time on 2026-12-01?"]);
    expect(seen.map((s) => s.state)).toEqual([undefined, "asked-date", "date=2026-12-01"]);
    expect(result.haltedReason).toBe("completed");
    expect(result.messages).toContainEqual({
      role: "tool",
      toolCallId: "c1",
      name: "booking__book",
      content: "booked Oslo at 19:30 (date=2026-12-01)",
      isError: false,
    });
    // One answer per call, no question left over: valid to send to a provider.
    expect(result.messages.filter((m) => m.role === "tool")).toHaveLength(1);
    expect(result.messages.filter((m) => m.role === "assistant" && m.metadata?.askUser === true)).toEqual([]);
    expect(model.requests).toHaveLength(2);
  });

  it("resumeMcpInput's `halted` is the run halted on the new question, ready to resume", async () => {
    const seen: { state?: unknown; answers?: unknown }[] = [];
    const tools = await mcpTools({ booking: await twoRoundServer(seen) });
    const model = scriptedModel([
      [
        { type: "tool_call", call: { id: "c1", name: "booking__book", arguments: { city: "Oslo" } } },
        { type: "finish", reason: "tool_calls" },
      ],
    ]);
    const first = await runAgent({ model, tools, messages: [{ role: "user", content: "Book Oslo" }] });
    const resumed = await resumeMcpInput(first, { when: { action: "accept", content: { date: "2026-12-01" } } }, tools);
    const askUserOpts = { mcp: expect.objectContaining({ requestState: "date=2026-12-01", inputRequests: { time: expect.any(Object) } }) };
    expect(resumed.halted).toEqual({
      haltedReason: "ask_user",
      metadata: {
        pendingQuestion: "At what time on 2026-12-01?",
        pendingToolCallId: "c1",
        askUserOpts,
        pendingQuestions: [{ toolCallId: "c1", question: "At what time on 2026-12-01?", opts: askUserOpts }],
      },
      messages: resumed.messages,
    });
    expect(resumed.messages.at(-1)).toMatchObject({ role: "assistant", content: "At what time on 2026-12-01?", metadata: { askUser: true, toolCallId: "c1" } });
  });
});
