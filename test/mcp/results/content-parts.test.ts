import type { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { AudioContentSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type ContentPart, type Tool } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { openai } from "../../../src/providers/index.js";
import { must } from "../../support/must.js";
import { connect, LINES, servedThroughToolrx, type Connected, type SdkLine } from "../support/servers";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQK";
// The first 12 bytes of a WAV file (RIFF header).
const WAV = "UklGRiQAAABXQVZF";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close().catch(() => {})));
});

async function remote(line: SdkLine, content: unknown[]): Promise<Connected> {
  const c = await connect(line, { tools: [{ name: "chart", handler: () => ({ content }) }] });
  closers.push(() => c.close());
  return c;
}

/** A server of `line` serving `tools` through toolrx, and a client of the same line. */
function served(line: SdkLine, tools: readonly Tool[]): Promise<ClientV1 | ClientV2> {
  return servedThroughToolrx(line, tools, closers);
}

describe.each(LINES)("content parts across MCP (SDK %s)", (line) => {
  it("mcpTools: a server's image, audio and embedded file become the result's parts; their markers stay in the text", async () => {
    const { client } = await remote(line, [
      { type: "text", text: "Sales by month" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: "file:///report.pdf", mimeType: "application/pdf", blob: PDF } },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    ]);
    const { messages } = await runToolCalls([{ id: "c1", name: "chart", arguments: {} }], await mcpTools(client));
    const message = must(messages[0]);
    expect(message.content).toBe(
      "Sales by month\n\n[image: image/png, 70 B]\n\n[resource: file:///report.pdf, application/pdf, 9 B]\n\n[audio: audio/wav, 3 B]",
    );
    expect(message.parts).toEqual([
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "file", mediaType: "application/pdf", data: PDF, name: "file:///report.pdf" },
      { type: "audio", mediaType: "audio/wav", data: "AAAA" },
    ]);
    // A provider that takes images gets the image itself; Chat's tool message, text only, does not repeat a marker the text holds.
    const [chat] = openai.toToolMessages(messages);
    expect(must(chat).content.match(/\[image: image\/png, 70 B\]/g)).toHaveLength(1);
    // No provider takes audio in a tool result: each reads its marker, once.
    expect(must(chat).content.match(/\[audio: audio\/wav, 3 B\]/g)).toHaveLength(1);
  });

  it("mcpTools: an image the server labelled wrong keeps its marker and is no part", async () => {
    const { client } = await remote(line, [{ type: "image", data: PNG, mimeType: "text/plain" }]);
    const { messages } = await runToolCalls([{ id: "c1", name: "chart", arguments: {} }], await mcpTools(client));
    expect(must(messages[0]).content).toBe("[image: text/plain, 70 B]");
    expect(must(messages[0])).not.toHaveProperty("parts");
  });

  it("serveTools: a tool's parts reach the MCP client as image, resource, audio and resource_link blocks after its text", async () => {
    const parts: ContentPart[] = [
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "file", mediaType: "application/pdf", data: PDF, name: "report.pdf" },
      { type: "image", url: "https://example.com/cat.jpg" },
      { type: "resource", uri: "file:///notes.txt", mimeType: "text/plain", text: "remember" },
      { type: "audio", mediaType: "audio/wav", data: WAV },
      { type: "audio", url: "https://example.com/hello.mp3" },
    ];
    const chart = defineTool({ name: "chart", description: "A chart", schema: z.object({}), handler: () => ok("the chart", { parts }) });
    const client = await served(line, [chart]);
    const result = (await (client as ClientV1).callTool({ name: "chart", arguments: {} })) as { content: unknown[]; isError?: boolean };
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([
      { type: "text", text: "the chart" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: "attachment:report.pdf", mimeType: "application/pdf", blob: PDF } },
      { type: "resource_link", uri: "https://example.com/cat.jpg", name: "image-3" },
      { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "remember" } },
      { type: "audio", data: WAV, mimeType: "audio/wav" },
      { type: "resource_link", uri: "https://example.com/hello.mp3", name: "audio-6" },
    ]);
    // The SDK's own schemas are the judge: a CallToolResult, its audio an AudioContent.
    expect(CallToolResultSchema.safeParse(result).success).toBe(true);
    expect(AudioContentSchema.safeParse(result.content[5]).success).toBe(true);
    // And back through mcpTools: the image, the file and the audio are parts again.
    const { messages } = await runToolCalls([{ id: "c1", name: "chart", arguments: {} }], await mcpTools(client));
    expect(must(messages[0]).parts).toEqual([
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "file", mediaType: "application/pdf", data: PDF, name: "attachment:report.pdf" },
      { type: "audio", mediaType: "audio/wav", data: WAV },
    ]);
  });
});
