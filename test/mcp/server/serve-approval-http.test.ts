import { Client as ClientV2, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, Server as ServerV2 } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { Tool } from "../../../src/index.js";
import { serveTools } from "../../../src/mcp/index.js";
import { must } from "../../support/must.js";
import { approve, closers, paid, pay, resetAfterEach, text } from "./approval-fixture.js";

// serveTools and needsApproval behind the 2.x web handler (stateless, reached through fetch): a
// 2025-11-25 client, whose server never saw its initialize, and a client on revision 2026-07-28.
resetAfterEach();

/** A toolrx server behind the 2.x web handler, reached through fetch by `client`, which must end in `era`. */
async function servedOverHttp(tools: readonly Tool[], client: ClientV2, era: "modern" | "2025-11-25"): Promise<ClientV2> {
  const handler = createMcpHandler(() => {
    const server = new ServerV2({ name: "toolrx", version: "1.0.0" }, { capabilities: { tools: {} } });
    serveTools(server, tools);
    return server;
  });
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  await client.connect(new StreamableHTTPClientTransport(new URL("http://toolrx.test/mcp"), { fetch }));
  closers.push(
    () => client.close(),
    () => handler.close(),
  );
  if (era === "modern") expect(client.getProtocolEra()).toBe("modern");
  else expect(client.getProtocolEra()).not.toBe("modern");
  return client;
}

describe("serveTools and needsApproval on the 2.x web handler, for a 2025-11-25 client (SDK v2)", () => {
  it("refuses the call saying the stateless server never saw initialize, not that the client lacks elicitation it declared", async () => {
    const client = new ClientV2({ name: "c", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    await servedOverHttp([pay], client, "2025-11-25");
    const answer = (await client.callTool({ name: "pay", arguments: { amount: 250 } })) as { content: { text: string }[]; isError: boolean };
    expect(answer.isError).toBe(true);
    const said = must(answer.content[0]).text;
    expect(said).toMatch(/stateless\) and never saw the client's initialize/);
    expect(said).not.toMatch(/does not support MCP form elicitation\)/);
    expect(paid).toEqual([]);
  });
});

describe("serveTools and needsApproval on revision 2026-07-28 (SDK v2)", () => {
  it("asks with an input_required result; the client's user answers and the retried call runs", async () => {
    const client = new ClientV2({ name: "c", version: "1.0.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (req) => approve(req.params as never) as never);
    await servedOverHttp([pay], client, "modern");
    expect(await client.callTool({ name: "pay", arguments: { amount: 250 } })).toMatchObject(text("paid 250", false));
    expect(approve).toHaveBeenCalledTimes(1);
    expect(paid).toEqual([250]);
  });

  it("a client that hands input_required back sees the question, and a retry with a decline does not run the call", async () => {
    const client = new ClientV2(
      { name: "c", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
    );
    await servedOverHttp([pay], client, "modern");
    const asked = (await client.callTool({ name: "pay", arguments: { amount: 250 } }, { allowInputRequired: true } as never)) as Record<string, unknown>;
    expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { toolrx_approval: { method: "elicitation/create" } } });
    const declined = await client.callTool(
      { name: "pay", arguments: { amount: 250 }, inputResponses: { toolrx_approval: { action: "decline" } } } as never,
      { allowInputRequired: true } as never,
    );
    expect(declined).toMatchObject(text("The user declined the call to pay; it was not run", true));
    expect(paid).toEqual([]);
  });

  it("refuses the call when the client declares no elicitation", async () => {
    const client = new ClientV2({ name: "c", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await servedOverHttp([pay], client, "modern");
    expect(await client.callTool({ name: "pay", arguments: { amount: 250 } })).toMatchObject({ isError: true });
    expect(paid).toEqual([]);
  });
});
