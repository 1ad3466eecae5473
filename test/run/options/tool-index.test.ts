/**
 * What would fail later, or silently, about a tool list is refused before anything runs: two
 * tools with one name (the model is offered both, the runner used the first), and tools of one
 * concurrency group that disagree on its limit (found only once the second tool's call started).
 */
import { Subject } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, executeToolCalls, ok, runToolCalls, streamToolCalls, toolResolver, type Tool } from "../../../src/index.js";
import { mcpTools } from "../../../src/mcp/index.js";
import { connect, text, type Connected } from "../../mcp/support/servers.js";
import { anyArgs, call } from "../../support/helpers.js";

const handler = vi.fn(async () => ok("ran"));
const local = (name: string, control?: Tool["control"]) =>
  defineTool({ name, description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });

const open: Connected[] = [];
afterEach(async () => {
  handler.mockClear();
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

describe("two tools with one name", () => {
  const tools = [local("search"), local("other"), local("search")];
  const message = /^Two tools are named "search": tools\[0\] and tools\[2\]\. A model cannot tell them apart and providers refuse the request: rename one/;

  it("are refused by runToolCalls and streamToolCalls at call time, before any handler runs", async () => {
    await expect(runToolCalls([call("c1", "other")], tools)).rejects.toThrow(message);
    expect(() => streamToolCalls([call("c1", "other")], tools)).toThrow(TypeError);
    expect(() => streamToolCalls(new Subject(), tools)).toThrow(message);
    expect(() => executeToolCalls(tools)).toThrow(message);
    expect(handler).not.toHaveBeenCalled();
  });

  it("are refused when a resolver lists them, as the stream's error, before any handler runs", async () => {
    const resolver = { ...toolResolver([local("other")]), availableTools: () => tools };
    const errors: unknown[] = [];
    streamToolCalls([call("c1", "other")], resolver, { onUnknownTool: "answer" }).subscribe({ error: (e) => errors.push(e) });
    expect(String(errors[0])).toMatch(/^TypeError: Two tools are named "search": availableTools\(\)\[0\] and availableTools\(\)\[2\]/);
    expect(handler).not.toHaveBeenCalled();
  });

  it("name the MCP server of a remote one", async () => {
    const server = await connect("v1", { tools: [{ name: "search", inputSchema: { type: "object" }, handler: () => text("remote") }] });
    open.push(server);
    const remote = await mcpTools({ github: server.client }, { rename: (tool) => tool.name });
    await expect(runToolCalls([call("c1", "search")], [local("search"), ...remote])).rejects.toThrow(
      /^Two tools are named "search": tools\[0\] and tools\[1\] \(from MCP server "github"\)/,
    );
  });
});

describe("tools of one concurrency group that disagree on its limit", () => {
  const tools = [local("a", { concurrency: { group: "db", limit: 2 } }), local("b", { concurrency: { group: "db", limit: 3 } })];
  const message = /^Expected every tool of concurrency group "db" to give the same `limit`: tool "b" gives 3, tool "a" 2/;

  it("are refused before the first call of the group runs", async () => {
    await expect(runToolCalls([call("1", "a"), call("2", "b")], tools)).rejects.toThrow(message);
    expect(() => streamToolCalls(new Subject(), tools)).toThrow(message);
    expect(handler).not.toHaveBeenCalled();
  });

  it("are refused even when the batch calls only one of them", async () => {
    await expect(runToolCalls([call("1", "a")], tools)).rejects.toThrow(message);
    expect(handler).not.toHaveBeenCalled();
  });
});
