import { describe, expect, it, vi } from "vitest";
import { runToolCalls, type ToolError, type ToolCall } from "../../../src/index.js";
import { mcpTools, type McpClientLike } from "../../../src/mcp/index.js";
import { LINES, sleep, text } from "../support/servers";
import { must } from "../../support/must.js";
import { call, servedPerTest } from "./call-fixture.js";

// An MCP call that goes wrong outside the tool: a malformed result, a server that dies, a closed client.

const serve = servedPerTest();

describe.each(LINES)("an MCP tool's call (SDK %s)", (line) => {
  describe("bad input", () => {
    it("a result that is not a CallToolResult is an error for that call alone", async () => {
      const { client } = await serve(line, [
        { name: "weird", handler: () => ({ content: "not an array" }) },
        { name: "fine", handler: () => text("fine") },
      ]);
      const result = await runToolCalls([call("weird"), call("fine")], await mcpTools(client));
      expect(must(result.messages[0]).isError).toBe(true);
      expect(result.messages[1]).toMatchObject({ content: "fine", isError: false });
    });

    it("a server that dies mid-call: handler_exit, within the deadline, other servers unaffected", async () => {
      const dying = await serve(line, [{ name: "work", handler: () => sleep(5_000).then(() => text("never")) }]);
      const healthy = await serve(line, [{ name: "work", handler: () => sleep(200).then(() => text("ok")) }]);
      const tools = await mcpTools({ dying: dying.client, healthy: healthy.client });
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      setTimeout(() => void dying.closeServer(), 50);
      const result = await runToolCalls([call("dying__work"), call("healthy__work")], tools, { onToolError, toolTimeout: 3_000 });
      const reason = must(onToolError.mock.calls[0])[1] as ToolError;
      expect(reason.reason).toBe("handler_exit");
      expect(reason.message).toContain('MCP server "dying" went away during tool work');
      expect(result.messages[1]).toMatchObject({ content: "ok", isError: false });
    });

    it("a client that was closed before the call: handler_exit", async () => {
      const c = await serve(line, [{ name: "work", handler: () => text("ok") }]);
      const tools = await mcpTools(c.client);
      await c.client.close();
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      await runToolCalls([call("work")], tools, { onToolError });
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("handler_exit");
    });
  });
});

describe("a client that answers something that is not a CallToolResult", () => {
  it("is invalid_return", async () => {
    const client: McpClientLike = {
      listTools: async () => ({ tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      callTool: async () => "nope",
    };
    const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
    await runToolCalls([call("t")], await mcpTools(client), { onToolError });
    expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("invalid_return");
  });
});
