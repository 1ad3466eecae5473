import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryApprovalLedger, ok, type Tool } from "../../../src/index.js";
import { serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";
import { LINES, type SdkLine } from "../support/servers";
import { must } from "../../support/must.js";
import { type Answer, approve, closers, paid, pay, payOver100, resetAfterEach, text } from "./approval-fixture.js";

type AnyClient = ClientV1 | ClientV2;
resetAfterEach();

/** A toolrx server of `line` and a client of the same line, in memory; `answer` is its user, if it can ask one. */
async function served(line: SdkLine, tools: readonly Tool[], answer: Answer | undefined, options?: ServeToolsOptions): Promise<AnyClient> {
  const server = line === "v1" ? new ServerV1({ name: "toolrx", version: "1.0.0" }) : new ServerV2({ name: "toolrx", version: "1.0.0" });
  serveTools(server, tools, options);
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  await server.connect(b as never);
  // 1.x declares form support the pre-mode way, a bare `elicitation: {}`.
  const capabilities: Record<string, Record<string, object>> = answer === undefined ? {} : { elicitation: line === "v1" ? {} : { form: {} } };
  let client: AnyClient;
  if (line === "v1") {
    client = new ClientV1({ name: "c", version: "1.0.0" }, { capabilities });
    if (answer) client.setRequestHandler(ElicitRequestSchema, async (req) => answer(req.params as never) as never);
  } else {
    client = new ClientV2({ name: "c", version: "1.0.0" }, { capabilities });
    if (answer) client.setRequestHandler("elicitation/create", async (req) => answer(req.params as never) as never);
  }
  await client.connect(a as never);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

function callTool(client: AnyClient, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return client instanceof ClientV1
    ? (client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>)
    : (client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>);
}

describe.each(LINES)("serveTools and needsApproval (SDK %s)", (line) => {
  it("asks the client's user through elicitation, with the tool and its arguments, and runs the call once approved", async () => {
    const client = await served(line, [pay], approve);
    expect(await callTool(client, "pay", { amount: 250 })).toMatchObject(text("paid 250", false));
    expect(paid).toEqual([250]);
    expect(approve).toHaveBeenCalledTimes(1);
    const { message, requestedSchema } = must(approve.mock.calls[0])[0];
    expect(message).toBe('Allow the tool pay (Pay an invoice) to run with these arguments?\n{"amount":250}');
    expect(requestedSchema).toMatchObject({ properties: { approve: { type: "boolean" } }, required: ["approve"] });
  });

  it.each([
    ["a decline", { action: "decline" }, "The user declined the call to pay; it was not run"],
    ["a dismissal", { action: "cancel" }, "The user dismissed the approval of pay; the call was not run"],
    ["an accepted form without approve: true", { action: "accept", content: { approve: false } }, "The user did not approve the call to pay; it was not run"],
  ])("refuses the call on %s, saying so, and never runs it", async (_what, answer, why) => {
    const client = await served(line, [pay], () => answer);
    expect(await callTool(client, "pay", { amount: 250 })).toEqual(text(why, true));
    expect(paid).toEqual([]);
  });

  it("refuses the call when the client cannot ask its user (no elicitation capability)", async () => {
    const client = await served(line, [pay], undefined);
    const result = await callTool(client, "pay", { amount: 250 });
    expect(result).toEqual(
      text("The tool pay needs the user's approval, and this client cannot ask for it (it does not support MCP form elicitation); the call was not run", true),
    );
    expect(paid).toEqual([]);
  });

  it("evaluates a function rule first: a call it lets through runs without asking", async () => {
    const client = await served(line, [payOver100], approve);
    expect(await callTool(client, "pay", { amount: 20 })).toMatchObject(text("paid 20", false));
    expect(approve).not.toHaveBeenCalled();
    expect(await callTool(client, "pay", { amount: 500 })).toMatchObject(text("paid 500", false));
    expect(approve).toHaveBeenCalledTimes(1);
    expect(paid).toEqual([20, 500]);
  });

  it("refuses the call when the rule throws", async () => {
    const broken = defineTool({
      name: "pay",
      description: "Pay an invoice",
      schema: z.object({ amount: z.number() }),
      needsApproval: () => {
        throw new Error("no limits configured");
      },
      handler: ({ amount }) => {
        paid.push(amount);
        return ok(`paid ${amount}`);
      },
    });
    const client = await served(line, [broken], approve);
    // The runner answers it as it answers an executor that fails: not run, the rule's error shown.
    expect(await callTool(client, "pay", { amount: 5 })).toEqual(text("tool error (pay): handler_exit: no limits configured", true));
    expect(approve).not.toHaveBeenCalled();
    expect(paid).toEqual([]);
  });

  it("refuses the call when the user does not answer within approvalTimeout", async () => {
    const client = await served(line, [pay], () => new Promise(() => {}), { approvalTimeout: 100 });
    const result = await callTool(client, "pay", { amount: 250 });
    expect(result.isError).toBe(true);
    expect(String(must((result.content as { text: string }[])[0]).text)).toMatch(/^Could not ask the user to approve the call to pay \(.+\); it was not run$/);
    expect(paid).toEqual([]);
  });

  it("works with the run's approvalSecret and approvalLedger: each approved call runs once", async () => {
    const client = await served(line, [pay], approve, { approvalSecret: "server-side secret", approvalLedger: memoryApprovalLedger() });
    expect(await callTool(client, "pay", { amount: 250 })).toMatchObject(text("paid 250", false));
    expect(await callTool(client, "pay", { amount: 250 })).toMatchObject(text("paid 250", false));
    expect(approve).toHaveBeenCalledTimes(2);
    expect(paid).toEqual([250, 250]);
  });

  it("does not ask about a call whose arguments are invalid: the runner answers it without running it", async () => {
    const client = await served(line, [pay], approve);
    const result = await callTool(client, "pay", { amount: "lots" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("amount");
    expect(approve).not.toHaveBeenCalled();
    expect(paid).toEqual([]);
  });
});

describe("serveTools' approvalTimeout", () => {
  it("is a TypeError naming it when it is not a positive number of ms", () => {
    const server = new ServerV1({ name: "s", version: "1" });
    expect(() => serveTools(server, [pay], { approvalTimeout: 0 })).toThrow(
      new TypeError("Expected `approvalTimeout` to be a positive number of ms up to 2147483647, got 0"),
    );
    expect(() => serveTools(server, [pay], { approvalTimeout: "5m" as never })).toThrow(/`approvalTimeout`/);
  });
});
