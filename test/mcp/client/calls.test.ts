import { describe, expect, it, vi } from "vitest";
import { runToolCalls, ToolError, type ToolCall } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { LINES, text } from "../support/servers";
import { must } from "../../support/must.js";
import { call, servedPerTest } from "./call-fixture.js";

// An MCP tool's result as toolrx answers it: content, isError, protocol errors, structured content, size.

const serve = servedPerTest();

describe.each(LINES)("an MCP tool's call (SDK %s)", (line) => {
  it("answers with the text of the result's content", async () => {
    const { client } = await serve(line, [
      {
        name: "add",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        handler: ({ a, b }) => text(String(Number(a) + Number(b))),
      },
    ]);
    const result = await runToolCalls([call("add", { a: 2, b: 3 })], await mcpTools(client));
    expect(result.messages).toEqual([{ role: "tool", toolCallId: "c-add", name: "add", content: "5", isError: false }]);
  });

  it("validates arguments against the server's inputSchema before calling the server", async () => {
    const handler = vi.fn(() => text("ran"));
    const { client } = await serve(line, [{ name: "find", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, handler }]);
    const result = await runToolCalls([call("find", { q: 1 })], await mcpTools(client));
    expect(must(result.messages[0]).isError).toBe(true);
    expect(must(result.messages[0]).content).toContain("q");
    expect(handler).not.toHaveBeenCalled();
  });

  describe("when the result has isError: true", () => {
    it("is an error through onToolError, not a success", async () => {
      const { client } = await serve(line, [{ name: "fail", handler: () => ({ content: [{ type: "text", text: "no such city" }], isError: true }) }]);
      const onToolError = vi.fn(() => "halt" as const);
      const result = await runToolCalls([call("fail")], await mcpTools(client), { onToolError });
      expect(onToolError).toHaveBeenCalledWith(call("fail"), "no such city");
      expect(result.messages[0]).toMatchObject({ content: '{"error":"no such city"}', isError: true });
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c-fail" });
    });
  });

  describe("when the server answers with a protocol error", () => {
    it("is handler_raised, carrying the server's error", async () => {
      const { client } = await serve(line, [
        {
          name: "boom",
          handler: () => {
            throw new Error("database is down");
          },
        },
      ]);
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => ({ continue: "fallback" }));
      await runToolCalls([call("boom")], await mcpTools(client), { onToolError });
      const reason = must(onToolError.mock.calls[0])[1] as ToolError;
      expect(reason).toBeInstanceOf(ToolError);
      expect(reason.reason).toBe("handler_raised");
      expect(String((reason.cause as Error).message)).toContain("database is down");
    });
  });

  describe("content blocks and structured content", () => {
    it("map to text in a documented way", async () => {
      const { client } = await serve(line, [
        {
          name: "mixed",
          handler: () => ({
            content: [
              { type: "text", text: "Found 2 files" },
              { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
              { type: "audio", data: "AAAA", mimeType: "audio/wav" },
              { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: "first file" },
              { type: "resource", resource: { uri: "file:///b.txt", text: "contents of b", mimeType: "text/plain" } },
              { type: "resource", resource: { uri: "file:///c.bin", blob: "AAAAAA==", mimeType: "application/octet-stream" } },
            ],
          }),
        },
        {
          name: "structured",
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          handler: () => ({ content: [], structuredContent: { n: 7 } }),
        },
      ]);
      const result = await runToolCalls([call("mixed"), call("structured")], await mcpTools(client));
      expect(must(result.messages[0]).content).toBe(
        [
          "Found 2 files",
          "[image: image/png, 5 B]",
          "[audio: audio/wav, 3 B]",
          "[resource link: a.txt file:///a.txt]\nfirst file",
          "[resource: file:///b.txt]\ncontents of b",
          "[resource: file:///c.bin, application/octet-stream, 4 B]",
        ].join("\n\n"),
      );
      expect(result.messages[1]).toMatchObject({ content: '{"n":7}', isError: false });
    });

    it("structuredContent that breaks the tool's outputSchema is an error", async () => {
      const { client } = await serve(line, [
        {
          name: "liar",
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          handler: () => ({ content: [{ type: "text", text: "{}" }], structuredContent: { n: "seven" } }),
        },
      ]);
      const result = await runToolCalls([call("liar")], await mcpTools(client));
      expect(must(result.messages[0]).isError).toBe(true);
      expect(must(result.messages[0]).content).toMatch(/output ?schema/i);
    });
  });

  describe("maxResultChars", () => {
    it("cuts a huge result and says so, for success and error alike", async () => {
      const { client } = await serve(line, [
        { name: "big", handler: () => text("x".repeat(100_000)) },
        { name: "bigerr", handler: () => ({ content: [{ type: "text", text: "e".repeat(50_000) }], isError: true }) },
      ]);
      const result = await runToolCalls([call("big"), call("bigerr")], await mcpTools(client, { maxResultChars: 1_000 }));
      expect(must(result.messages[0]).content).toBe(`${"x".repeat(1_000)}\n[truncated: 1000 of 100000 characters shown]`);
      expect(must(result.messages[1]).content.length).toBeLessThan(1_200);
      expect(must(result.messages[1]).isError).toBe(true);
    });
  });
});
