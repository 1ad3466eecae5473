import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultExecutor, runToolCalls, type HandlerContext, type ToolCall, type ToolError } from "../../src/index.js";
import { mcpTools, type McpProgress } from "../../src/mcp/index.js";
import { LINES, type SdkLine } from "./servers.js";

const fixture = fileURLToPath(new URL("./stdio-server.ts", import.meta.url));
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

/** A client connected to the fixture server in a child process, over stdio. */
async function spawnServer(line: SdkLine): Promise<ClientV1 | ClientV2> {
  const params = { command: process.execPath, args: ["--import", "tsx", fixture, line], stderr: "ignore" as const };
  const client = line === "v1" ? new ClientV1({ name: "c", version: "1" }) : new ClientV2({ name: "c", version: "1" });
  await client.connect((line === "v1" ? new StdioV1(params) : new StdioV2(params)) as never);
  clients.push(client);
  return client;
}
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `c-${name}`, name, arguments: args });

describe.each(LINES)("an MCP server in a child process over stdio (SDK %s)", (line) => {
  it("lists every page and answers calls, progress included", async () => {
    const client = await spawnServer(line);
    const tools = await mcpTools({ child: client });
    expect(tools.map((t) => t.name)).toEqual(["child__echo", "child__count", "child__slow", "child__crash", "child__pid"]);
    const reports: McpProgress[] = [];
    const result = await runToolCalls([call("child__echo", { say: "hi" }), call("child__count")], tools, {
      toolExecutor: {
        execute: (tool, args, ctx) =>
          defaultExecutor.execute(tool, args, { ...pick(ctx), progress: (p: McpProgress) => reports.push(p) } as HandlerContext),
      },
    });
    expect(result.messages.map((m) => m.content)).toEqual(["hi", "counted"]);
    expect(reports.map((r) => r.message)).toEqual(["step 1", "step 2", "step 3"]);
  });

  it("a deadline cancels the call in the child and answers timeout; the next call still works", async () => {
    const client = await spawnServer(line);
    const tools = await mcpTools(client);
    const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
    await runToolCalls([call("slow")], tools, { toolTimeout: 200, onToolError });
    expect((onToolError.mock.calls[0]![1] as ToolError).reason).toBe("timeout");
    const again = await runToolCalls([call("echo", { say: "still here" })], tools);
    expect(again.messages[0]!.content).toBe("still here");
  });

  it("a server process that dies mid-call: handler_exit for that call, long before its deadline", async () => {
    const client = await spawnServer(line);
    const tools = await mcpTools(client);
    const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
    const started = Date.now();
    await runToolCalls([call("crash")], tools, { toolTimeout: 15_000, onToolError });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((onToolError.mock.calls[0]![1] as ToolError).reason).toBe("handler_exit");
  });
});

function pick(ctx: HandlerContext): HandlerContext {
  const { context, sessionId, requestId, toolCall, engine, signal } = ctx;
  return { context, sessionId, requestId, toolCall, engine, signal };
}

describe.each(LINES)("examples/mcp-server.ts, toolrx tools served over stdio, reached from SDK %s", (line) => {
  it("lists the served tools and answers through toolrx's validation and policy", async () => {
    const example = fileURLToPath(new URL("../../examples/mcp-server.ts", import.meta.url));
    const params = { command: process.execPath, args: ["--import", "tsx", example], stderr: "ignore" as const };
    const client = line === "v1" ? new ClientV1({ name: "c", version: "1" }) : new ClientV2({ name: "c", version: "1" });
    await client.connect((line === "v1" ? new StdioV1(params) : new StdioV2(params)) as never);
    clients.push(client);
    const tools = await mcpTools({ weather: client });
    expect(tools.map((t) => t.name)).toEqual(["weather__forecast", "weather__packing_list"]);
    const result = await runToolCalls(
      [call("weather__forecast", { city: "Rome" }), call("weather__forecast", { city: "" }), call("weather__packing_list", { sky: "sun", tempC: 25 })].map(
        (c, i) => ({ ...c, id: `c${i}` }),
      ),
      tools,
    );
    expect(result.messages.map((m) => [m.content, m.isError])).toEqual([
      ['{"city":"Rome","tempC":19,"sky":"sun"}', false],
      [expect.stringContaining("city"), true],
      ['["light jacket","sunglasses"]', false],
    ]);
  });
});
