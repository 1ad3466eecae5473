import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, type Tool } from "../../../src/index.js";
import { serveTools } from "../../../src/mcp/index.js";
import { CONFORMANCE_TOOLS } from "../support/conformance-tools";
import { LINES, type SdkLine } from "../support/servers";
import { startSessionHttpServer } from "../support/session-http-server";
import { must } from "../../support/must.js";

type AnyClient = ClientV1 | ClientV2;
type Handler = (params: Record<string, unknown>) => unknown;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

/** The client's user and model; either left out, the client does not declare the capability. */
interface ClientSide {
  elicit?: Handler;
  sample?: Handler;
}

function clientOf(line: SdkLine, side: ClientSide): AnyClient {
  const capabilities: Record<string, object> = {};
  if (side.elicit) capabilities.elicitation = line === "v1" ? {} : { form: {} };
  if (side.sample) capabilities.sampling = {};
  if (line === "v1") {
    const client = new ClientV1({ name: "c", version: "1.0.0" }, { capabilities });
    const { elicit, sample } = side;
    if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req.params) as never);
    if (sample) client.setRequestHandler(CreateMessageRequestSchema, async (req) => sample(req.params) as never);
    return client;
  }
  const client = new ClientV2({ name: "c", version: "1.0.0" }, { capabilities });
  const { elicit, sample } = side;
  if (elicit) client.setRequestHandler("elicitation/create", async (req) => elicit(req.params as never) as never);
  if (sample) client.setRequestHandler("sampling/createMessage", async (req) => sample(req.params as never) as never);
  return client;
}

/** toolrx's `serveTools` on a server of `line`, a client of the same line, in memory. */
async function served(line: SdkLine, tools: readonly Tool[], side: ClientSide): Promise<AnyClient> {
  const server = line === "v1" ? new ServerV1({ name: "toolrx", version: "1.0.0" }) : new ServerV2({ name: "toolrx", version: "1.0.0" });
  serveTools(server, tools);
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  await server.connect(b as never);
  const client = clientOf(line, side);
  await client.connect(a as never);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

function callTool(client: AnyClient, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>;
}

const text = (t: string, isError: boolean) => ({ content: [{ type: "text", text: t }], isError });

describe.each(LINES)("ctx.askUser served with serveTools (SDK %s)", (line) => {
  it("puts the handler's question and form to the client's user as elicitation/create, and the handler reads the typed answer", async () => {
    const elicit = vi.fn<Handler>(() => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }));
    const client = await served(line, CONFORMANCE_TOOLS, { elicit });
    expect(await callTool(client, "test_elicitation", { message: "Who are you?" })).toEqual(
      text('User response: action=accept, content={"username":"ada","email":"ada@example.com"}', false),
    );
    expect(elicit).toHaveBeenCalledTimes(1);
    expect(must(elicit.mock.calls[0])[0]).toMatchObject({
      mode: "form",
      message: "Who are you?",
      requestedSchema: {
        type: "object",
        properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } },
        required: ["username", "email"],
      },
    });
  });

  it("sends SEP-1034 defaults and SEP-1330 enums as written, and fills the defaults of fields the user left out", async () => {
    const forms: unknown[] = [];
    const client = await served(line, CONFORMANCE_TOOLS, {
      elicit: (params) => {
        forms.push(params.requestedSchema);
        return { action: "accept", content: {} };
      },
    });
    expect(await callTool(client, "test_elicitation_sep1034_defaults")).toEqual(
      text('Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}', false),
    );
    expect(must(forms[0])).toMatchObject({
      properties: {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        score: { type: "number", default: 95.5 },
        status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
        verified: { type: "boolean", default: true },
      },
    });
    await callTool(client, "test_elicitation_sep1330_enums");
    expect(must(forms[1])).toMatchObject({
      properties: {
        titledSingle: { type: "string", oneOf: [{ const: "value1", title: "First Option" }, {}, {}] },
        legacyEnum: { enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
        titledMulti: { type: "array", items: { anyOf: [{ const: "value1", title: "First Choice" }, {}, {}] } },
      },
    });
  });

  it.each([["decline"], ["cancel"]])("gives the handler a %s as that closed outcome", async (action) => {
    const client = await served(line, CONFORMANCE_TOOLS, { elicit: () => ({ action }) });
    expect(await callTool(client, "test_elicitation", { message: "?" })).toEqual(text(`User response: action=${action}`, false));
  });

  it("fails the call, naming the field, when the accepted content does not match the form", async () => {
    const client = await served(line, CONFORMANCE_TOOLS, { elicit: () => ({ action: "accept", content: { untitledSingle: "option9" } }) });
    const result = await callTool(client, "test_elicitation_sep1330_enums");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("ctx.askUser: the client's answer does not match the form: untitledSingle: ");
  });

  it("fails the call with not_supported when the client did not declare form elicitation, never asking", async () => {
    const client = await served(line, CONFORMANCE_TOOLS, {});
    const result = await callTool(client, "test_elicitation", { message: "?" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("ctx.askUser: the client does not support it (MCP form elicitation was not declared)");
  });
});

describe.each(LINES)("ctx.sample served with serveTools (SDK %s)", (line) => {
  it("asks the client's model with sampling/createMessage and hands the handler its reply", async () => {
    const sample = vi.fn<Handler>(() => ({ role: "assistant", content: { type: "text", text: "four" }, model: "m-1", stopReason: "endTurn" }));
    const client = await served(line, CONFORMANCE_TOOLS, { sample });
    expect(await callTool(client, "test_sampling", { prompt: "2+2?" })).toEqual(text("LLM response: four", false));
    expect(must(sample.mock.calls[0])[0]).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 100 });
  });

  it("fails the call with not_supported when the client did not declare sampling, never asking", async () => {
    const client = await served(line, CONFORMANCE_TOOLS, { elicit: () => ({ action: "cancel" }) });
    const result = await callTool(client, "test_sampling", { prompt: "2+2?" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("ctx.sample: the client does not support it (MCP sampling was not declared)");
  });

  it("fails the call when the client's reply has no text", async () => {
    const client = await served(line, CONFORMANCE_TOOLS, {
      sample: () => ({ role: "assistant", content: { type: "image", data: "AA==", mimeType: "image/png" }, model: "m" }),
    });
    const result = await callTool(client, "test_sampling", { prompt: "draw" });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("ctx.sample: the client's reply has no text or no model");
  });
});

describe("ctx.askUser and ctx.sample over Streamable HTTP with sessions (SDK v1)", () => {
  it("ask on the call's own stream and answer the handler", async () => {
    const http = await startSessionHttpServer(CONFORMANCE_TOOLS);
    closers.push(() => http.close());
    const client = clientOf("v1", {
      elicit: () => ({ action: "accept", content: { name: "Jane", age: 25, score: 88, status: "inactive", verified: false } }),
      sample: () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }),
    }) as ClientV1;
    await client.connect(new HttpV1(new URL(http.url)));
    closers.unshift(() => client.close());
    expect(await callTool(client, "test_elicitation_sep1034_defaults")).toEqual(
      text('Elicitation completed: action=accept, content={"name":"Jane","age":25,"score":88,"status":"inactive","verified":false}', false),
    );
    expect(await callTool(client, "test_sampling", { prompt: "hello" })).toEqual(text("LLM response: hi", false));
  });
});

describe("a form ctx.askUser cannot put to a client", () => {
  it("is a TypeError where the handler asks, for a field no MCP form has", async () => {
    const nested = defineTool({
      name: "nested",
      description: "",
      schema: z.object({}),
      handler: async (_args, ctx) => {
        await ctx.askUser("Where?", z.object({ address: z.object({ city: z.string() }) }));
        return ok("asked");
      },
    });
    const client = await served("v1", [nested], { elicit: () => ({ action: "cancel" }) });
    const result = await callTool(client, "nested");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(
      "Expected the form of `ctx.askUser` in tool nested to be an object of string, number, integer, boolean or enum fields, got address: an object",
    );
  });
});
