// Real MCP servers and clients from both SDK lines, connected in memory, for the MCP tests.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import type { Tool, ToolResolver } from "../../../src/index.js";
import { serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";

export type SdkLine = "v1" | "v2";
export const LINES: readonly SdkLine[] = ["v1", "v2"];

/** What a test tool's handler can do besides answering. */
export interface ServerCallContext {
  signal: AbortSignal;
  progressToken: string | number | undefined;
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface TestTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  handler?: (args: Record<string, unknown>, ctx: ServerCallContext) => unknown;
}

export interface ServerSpec {
  tools: TestTool[];
  /** Tools per tools/list page; default all on one page. */
  pageSize?: number;
  /** Replace the tools/list answer entirely. */
  list?: (cursor: string | undefined) => unknown;
}

export interface Connected {
  client: ClientV1 | ClientV2;
  /** Cursors the server was asked for, in order (undefined: first page). */
  listCalls: (string | undefined)[];
  /** Ids of tool calls the client cancelled, as the server saw them. */
  cancelled: string[];
  closeServer(): Promise<void>;
  close(): Promise<void>;
}

const OBJECT = { type: "object", properties: {} };

/** A low-level server of `line` serving `spec`, not yet connected. */
export function buildServer(line: SdkLine, spec: ServerSpec, log: { listCalls: (string | undefined)[]; cancelled: string[] }): ServerV1 | ServerV2 {
  const { listCalls, cancelled } = log;
  const list = (cursor: string | undefined) => {
    listCalls.push(cursor);
    if (spec.list) return spec.list(cursor);
    const all = spec.tools.map(({ handler: _h, ...t }) => ({ inputSchema: OBJECT, ...t }));
    const size = spec.pageSize ?? (all.length || 1);
    const start = cursor === undefined ? 0 : Number(cursor);
    const page = { tools: all.slice(start, start + size) } as { tools: unknown[]; nextCursor?: string };
    if (start + size < all.length) page.nextCursor = String(start + size);
    return page;
  };
  const call = async (
    params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } },
    signal: AbortSignal,
    notify: (n: object) => Promise<void>,
  ) => {
    const tool = spec.tools.find((t) => t.name === params.name);
    if (!tool?.handler) return { content: [{ type: "text", text: `Unknown tool: ${params.name}` }], isError: true };
    const progressToken = params._meta?.progressToken;
    const ctx: ServerCallContext = {
      signal,
      progressToken,
      progress: (progress, total, message) =>
        progressToken === undefined ? Promise.resolve() : notify({ method: "notifications/progress", params: { progressToken, progress, total, message } }),
    };
    signal.addEventListener("abort", () => cancelled.push(String(params.name)), { once: true });
    return tool.handler(params.arguments ?? {}, ctx);
  };
  if (line === "v1") {
    const server = new ServerV1({ name: "test", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (req) => list(req.params?.cursor) as never);
    server.setRequestHandler(CallToolRequestSchema, (req, extra) => call(req.params, extra.signal, (n) => extra.sendNotification(n as never)) as never);
    return server;
  }
  const server = new ServerV2({ name: "test", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", (req) => list(req.params?.cursor) as never);
  server.setRequestHandler("tools/call", (req, ctx) => call(req.params, ctx.mcpReq.signal, (n) => ctx.mcpReq.notify(n as never)) as never);
  return server;
}

/** A low-level server of `line` serving `spec`, and a client connected to it in memory. */
export async function connect(line: SdkLine, spec: ServerSpec): Promise<Connected> {
  const log = { listCalls: [] as (string | undefined)[], cancelled: [] as string[] };
  const server = buildServer(line, spec, log);
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  await server.connect(b as never);
  const client = line === "v1" ? new ClientV1({ name: "toolrx-test", version: "1.0.0" }) : new ClientV2({ name: "toolrx-test", version: "1.0.0" });
  await client.connect(a as never);
  return {
    client,
    ...log,
    closeServer: () => server.close(),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A text result. */
export function text(t: string): { content: { type: "text"; text: string }[] } {
  return { content: [{ type: "text", text: t }] };
}

/** Resolves after `ms` of real time, or rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * A server of `line` serving `tools` through toolrx's `serveTools`, and a client of the same line,
 * connected in memory. `closers` gets what closes both, for the test's `afterEach`.
 */
export async function servedThroughToolrx(
  line: SdkLine,
  tools: readonly Tool[] | ToolResolver,
  closers: (() => Promise<void>)[],
  options?: ServeToolsOptions,
): Promise<ClientV1 | ClientV2> {
  const server = line === "v1" ? new ServerV1({ name: "toolrx", version: "1.0.0" }) : new ServerV2({ name: "toolrx", version: "1.0.0" });
  serveTools(server, tools, options);
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
