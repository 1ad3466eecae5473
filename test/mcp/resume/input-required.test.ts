import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, inputRequired, Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { AWAITING_USER_RESPONSE, runAgent, runToolCalls } from "../../../src/index.js";
import type { ToolMessage } from "../../../src/tool/message.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { mcpRetryCall, mcpTools, resumeMcpInput, type McpInputRequest } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/**
 * A 2.x server on the 2026-07-28 revision (the one with input_required), served by the SDK's
 * web-standard HTTP handler and reached through the client's `fetch` option: no socket at all.
 */
async function modernServer(seen: { state?: string; answers?: unknown }[]): Promise<Client> {
  const handler = createMcpHandler(() => {
    const server = new Server({ name: "booking", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({
      tools: [{ name: "book", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    }));
    server.setRequestHandler("tools/call", (req, ctx) => {
      const answers = ctx.mcpReq.inputResponses;
      seen.push({ state: ctx.mcpReq.requestState() as string | undefined, answers });
      if (answers === undefined) {
        return inputRequired({
          inputRequests: {
            when: {
              method: "elicitation/create",
              params: {
                mode: "form",
                message: "Which date?",
                requestedSchema: { type: "object", properties: { date: { type: "string" } }, required: ["date"] },
              },
            },
          },
          requestState: "state-1",
        } as never);
      }
      const date = (answers.when as { content: { date: string } }).content.date;
      return { content: [{ type: "text", text: `booked ${String(req.params.arguments?.city)} on ${date}` }] };
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

describe("an MCP server's input_required result (SDK v2, revision 2026-07-28)", () => {
  it("becomes ask_user with the server's question, and the retry call carries the answers and the server's state", async () => {
    const seen: { state?: string; answers?: unknown }[] = [];
    const client = await modernServer(seen);
    expect(client.getProtocolEra()).toBe("modern");
    const tools = await mcpTools({ booking: client });

    const first = await runToolCalls([{ id: "c1", name: "booking__book", arguments: { city: "Oslo" } }], tools);
    expect(first.messages[0]).toMatchObject({ content: AWAITING_USER_RESPONSE, isError: false });
    expect(first.halt).toMatchObject({ haltedReason: "ask_user", pendingQuestion: "Which date?", pendingToolCallId: "c1" });
    const input = (first.halt as { askUserOpts: { mcp: McpInputRequest } }).askUserOpts.mcp;
    expect(input).toEqual({
      server: "booking",
      tool: "book",
      toolName: "booking__book",
      arguments: { city: "Oslo" },
      inputRequests: { when: expect.objectContaining({ method: "elicitation/create" }) },
      requestState: "state-1",
    });

    const retry = mcpRetryCall(input, { when: { action: "accept", content: { date: "2026-12-01" } } }, "c1-answer");
    const second = await runToolCalls([retry], tools);
    expect(second.messages[0]).toMatchObject({ content: "booked Oslo on 2026-12-01", isError: false });
    expect(seen[1]).toEqual({ state: "state-1", answers: { when: { action: "accept", content: { date: "2026-12-01" } } } });
  });

  it("in the agent loop: halts with ask_user, and resumeMcpInput answers the pending call so the model reads the result", async () => {
    const seen: { state?: string; answers?: unknown }[] = [];
    const tools = await mcpTools({ booking: await modernServer(seen) });
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
    const user = { role: "user" as const, content: "Book Oslo" };
    const halted = await runAgent({ model, tools, messages: [user] });
    expect(halted).toMatchObject({ haltedReason: "ask_user", metadata: { pendingQuestion: "Which date?", pendingToolCallId: "c1" } });

    const { messages, halt } = await resumeMcpInput(halted, { when: { action: "accept", content: { date: "2026-12-01" } } }, tools);
    expect(halt).toBeUndefined();
    const answered: ToolMessage = { role: "tool", toolCallId: "c1", name: "booking__book", content: "booked Oslo on 2026-12-01", isError: false };
    expect(messages).toEqual([user, halted.messages[1], answered]);
    expect(seen[1]).toMatchObject({ state: "state-1" });

    const done = await runAgent({ model, tools, messages });
    expect(done.haltedReason).toBe("completed");
    expect(must(model.requests[1]).messages).toEqual(messages);
  });

  it("resumeMcpInput refuses a run that did not halt on an MCP tool's input_required", async () => {
    await expect(resumeMcpInput({ haltedReason: "completed", metadata: { finishReason: "stop" }, messages: [] }, {}, [])).rejects.toThrow(TypeError);
  });

  it("mcpRetryCall refuses what is not an MCP ask_user's data", () => {
    expect(() => mcpRetryCall({} as never, {}, "x")).toThrow(/`input`/);
    const input: McpInputRequest = { server: "", tool: "t", toolName: "t", arguments: {}, inputRequests: {} };
    expect(() => mcpRetryCall(input, [] as never, "x")).toThrow(/`inputResponses`/);
    expect(() => mcpRetryCall(input, {}, "")).toThrow(/`id`/);
  });
});
