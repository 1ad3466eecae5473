import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import type { McpServer as McpServerV2, Server as ServerV2 } from "@modelcontextprotocol/server";
import { describe, expectTypeOf, it } from "vitest";
import type { AgentResult, Tool, ToolCall } from "../../src/index.js";
import {
  mcpReattachCall,
  type McpTaskOptions,
  type McpTaskStore,
  mcpTools,
  type ServeTaskOptions,
  serveTools,
  type McpClientLike,
  type McpInputResumed,
  type McpServerLike,
  type McpToolsError,
  type McpToolsOptions,
  type ServeToolsOptions,
} from "../../src/mcp/index.js";

describe("toolrx/mcp types", () => {
  it("re-attaches a call to a task by id, and takes task and elicitation options", () => {
    expectTypeOf(mcpReattachCall).returns.toEqualTypeOf<ToolCall>();
    expectTypeOf<McpToolsOptions["tasks"]>().toEqualTypeOf<McpTaskOptions | undefined>();
    expectTypeOf<ServeToolsOptions["tasks"]>().toEqualTypeOf<ServeTaskOptions | undefined>();
    expectTypeOf<{ store: McpTaskStore }>().toExtend<ServeTaskOptions>();
  });

  it("accepts clients of both SDK lines, alone or in a record, and gives tools", () => {
    expectTypeOf<ClientV1>().toExtend<McpClientLike>();
    expectTypeOf<ClientV2>().toExtend<McpClientLike>();
    expectTypeOf(mcpTools).toBeCallableWith(new ClientV1({ name: "a", version: "1" }));
    expectTypeOf(mcpTools).toBeCallableWith({ a: new ClientV1({ name: "a", version: "1" }), b: new ClientV2({ name: "b", version: "1" }) });
    expectTypeOf(mcpTools).returns.resolves.toEqualTypeOf<Tool[]>();
  });

  it("accepts low-level servers of both SDK lines, and McpServer's .server", () => {
    expectTypeOf<ServerV1>().toExtend<McpServerLike>();
    expectTypeOf<ServerV2>().toExtend<McpServerLike>();
    expectTypeOf<McpServerV1["server"]>().toExtend<McpServerLike>();
    expectTypeOf<McpServerV2["server"]>().toExtend<McpServerLike>();
    expectTypeOf(serveTools).returns.toEqualTypeOf<void>();
  });

  it("types the options that keep listing and serving closed", () => {
    expectTypeOf<McpToolsOptions["onInvalidTool"]>().toEqualTypeOf<((error: McpToolsError) => void) | undefined>();
    expectTypeOf<ServeToolsOptions["approvalTimeout"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<McpInputResumed["halted"]>().toEqualTypeOf<AgentResult | undefined>();
  });

  it("refuses what is not a client", () => {
    // @ts-expect-error a string is not an MCP client
    void mcpTools("client");
  });
});
