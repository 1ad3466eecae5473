import { McpUiToolMetaSchema, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps";
import { registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { McpServer, Server as ServerV2 } from "@modelcontextprotocol/server";
import { MCPAppRenderer } from "@ai-sdk/react";
import { readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { lastValueFrom, toArray } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { toUIMessageChunks } from "../../../src/ai-sdk/index.js";
import { defineTool, ok, streamAgent, type Tool } from "../../../src/index.js";
import { mcpTools, serveTools } from "../../../src/mcp/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { LINES, type SdkLine } from "../support/servers";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

const VIEW = "ui://weather/view.html";
const weather = defineTool({
  name: "weather",
  description: "Weather by city, with a view",
  schema: z.object({ city: z.string() }),
  metadata: { app: { resourceUri: VIEW, visibility: ["model", "app"] } },
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

async function connect(line: SdkLine, server: ServerV1 | ServerV2): Promise<ClientV1 | ClientV2> {
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  await server.connect(b as never);
  const client = line === "v1" ? new ClientV1({ name: "c", version: "1.0.0" }) : new ClientV2({ name: "c", version: "1.0.0" });
  await client.connect(a as never);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

describe.each(LINES)("serveTools and a tool's MCP Apps view (SDK %s)", (line) => {
  it("lists metadata.app as the tool's _meta.ui, which ext-apps' own schema accepts, and the key older hosts read", async () => {
    const server = line === "v1" ? new ServerV1({ name: "s", version: "1.0.0" }) : new ServerV2({ name: "s", version: "1.0.0" });
    serveTools(server, [weather]);
    const client = await connect(line, server);
    const { tools } = await client.listTools();
    const meta = tools[0]?._meta as Record<string, unknown>;
    expect(McpUiToolMetaSchema.parse(meta.ui)).toEqual({ resourceUri: VIEW, visibility: ["model", "app"] });
    expect(meta[RESOURCE_URI_META_KEY]).toBe(VIEW);
  });
});

describe("mcpTools and a server's MCP Apps view", () => {
  it("reads the view ext-apps' registerAppTool declares into the tool's metadata.app", async () => {
    const server = new McpServer({ name: "apps", version: "1.0.0" });
    registerAppTool(server, "show", { description: "Shows a view", _meta: { ui: { resourceUri: "ui://apps/show.html" } } }, async () => ({
      content: [{ type: "text", text: "shown" }],
    }));
    const client = await connect("v2", server.server);
    const [show] = await mcpTools(client);
    expect(show?.metadata.app).toEqual({ resourceUri: "ui://apps/show.html" });
  });

  it("keeps no view whose URI is not ui://", async () => {
    const server = new ServerV1({ name: "s", version: "1.0.0" });
    const offSite = defineTool({
      name: "weather",
      description: "",
      schema: z.object({}),
      metadata: { app: { resourceUri: "https://evil.test/x.html" } },
      handler: () => ok("x"),
    });
    serveTools(server, [offSite]);
    const client = await connect("v1", server);
    const { tools } = await client.listTools();
    expect(tools[0]?._meta).toBeUndefined();
    const [listed] = await mcpTools(client);
    expect(listed?.metadata.app).toBeUndefined();
  });
});

describe("toUIMessageChunks({ tools }) and an MCP Apps view", () => {
  it("puts the view on the call's tool part as toolMetadata.app, which the AI SDK's MCPAppRenderer renders", async () => {
    // The tool as a client sees it: served by toolrx, listed back through mcpTools.
    const server = new ServerV1({ name: "s", version: "1.0.0" });
    serveTools(server, [weather]);
    const tools: Tool[] = await mcpTools(await connect("v1", server));
    const model = scriptedModel([
      [{ type: "tool_call", call: { id: "w1", name: "weather", arguments: { city: "Oslo" } } }],
      [{ type: "text_delta", text: "Sunny." }],
    ]);
    const chunks = await lastValueFrom(
      streamAgent({ model, tools, messages: [{ role: "user", content: "Weather?" }] }).pipe(toUIMessageChunks({ tools }), toArray()),
    );
    const schema = uiMessageChunkSchema();
    expect(schema.validate).toBeTypeOf("function");
    for (const chunk of chunks) expect(await schema.validate?.(chunk)).toMatchObject({ success: true });
    expect(chunks.filter((c) => "toolMetadata" in c).map((c) => c.type)).toEqual(["tool-input-available", "tool-output-available"]);
    let message: UIMessage | undefined;
    const stream = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    for await (const m of readUIMessageStream({ stream, terminateOnError: true })) message = m;
    const part = message?.parts.find((p) => p.type === "tool-weather" || p.type === "dynamic-tool") as Record<string, unknown>;
    expect(part).toMatchObject({
      state: "output-available",
      toolMetadata: { app: { resourceUri: VIEW, mimeType: RESOURCE_MIME_TYPE, visibility: ["model", "app"] } },
    });
    const render = (p: unknown) =>
      renderToStaticMarkup(
        createElement(MCPAppRenderer, {
          part: p as never,
          sandbox: { url: "https://sandbox.test/proxy.html" },
          resource: { uri: VIEW, mimeType: RESOURCE_MIME_TYPE, html: "<p>view</p>" },
          fallback: "no app",
        }),
      );
    expect(render(part)).toContain("<iframe");
    const { toolMetadata: _dropped, ...without } = part;
    expect(render(without)).toBe("no app");
  });
});
