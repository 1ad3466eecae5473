// Servers for the task tests: toolrx's serveTools with tasks, and raw task servers that answer as a test says.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { defineTool, ok, type Tool } from "../../../src/index.js";
import { serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";
import { type McpRequest, type McpRequestContext, setRequestHandler } from "../../../src/mcp/wire/server-like.js";
import type { SdkLine } from "../support/servers";

type Handler = (request: McpRequest, ctx: McpRequestContext) => Promise<Record<string, unknown>>;

/** A client of `line` that can answer elicitation, connected in memory to `server`. */
async function connectTo(line: SdkLine, server: ServerV1 | ServerV2, closers: (() => Promise<void>)[]): Promise<ClientV1 | ClientV2> {
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  await server.connect(b as never);
  const info = { name: "toolrx-test", version: "1.0.0" };
  const caps = { capabilities: { elicitation: { form: {} } } };
  const client = line === "v1" ? new ClientV1(info, caps) : new ClientV2(info, caps);
  await client.connect(a as never);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

function newServer(line: SdkLine): ServerV1 | ServerV2 {
  return line === "v1" ? new ServerV1({ name: "toolrx", version: "1.0.0" }) : new ServerV2({ name: "toolrx", version: "1.0.0" });
}

/** toolrx's serveTools (with `options.tasks`) on a new server of `line`, and a client connected to it. */
export function servedWithTasks(
  line: SdkLine,
  tools: readonly Tool[],
  closers: (() => Promise<void>)[],
  options: ServeToolsOptions,
): Promise<ClientV1 | ClientV2> {
  const server = newServer(line);
  serveTools(server, tools, options);
  return connectTo(line, server, closers);
}

/** A raw server of `line` with one task-required tool `job`, answering as `handlers` say. */
export function rawTaskServer(
  line: SdkLine,
  handlers: { call: Handler; get?: Handler; result?: Handler; cancel?: Handler },
  closers: (() => Promise<void>)[],
  taskSupport = "required",
): Promise<ClientV1 | ClientV2> {
  const server = newServer(line);
  server.registerCapabilities({ tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } } as never);
  setRequestHandler(server, "tools/list", async () => ({
    tools: [{ name: "job", inputSchema: { type: "object", properties: {} }, execution: { taskSupport } }],
  }));
  setRequestHandler(server, "tools/call", handlers.call);
  const missing: Handler = async () => {
    throw Object.assign(new Error("not here"), { code: -32601 });
  };
  setRequestHandler(server, "tasks/get", handlers.get ?? missing);
  setRequestHandler(server, "tasks/result", handlers.result ?? missing);
  setRequestHandler(server, "tasks/cancel", handlers.cancel ?? missing);
  return connectTo(line, server, closers);
}

/** A task as a 2025-11-25 server describes it. */
export function taskOf(taskId: unknown, status: unknown, statusMessage?: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return { taskId, status, ttl: 60_000, createdAt: now, lastUpdatedAt: now, pollInterval: 10, ...(statusMessage === undefined ? {} : { statusMessage }) };
}

/** A deferred value, for a tool the test finishes when it wants. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A tool `job` held until `open()`: a task that is still running when its client goes away, as the
 * re-attach tests need it, counting how often the server ran its handler.
 */
export function gatedJob(): { readonly tool: Tool; open(): void; runs(): number } {
  const gate = deferred();
  let runs = 0;
  const tool = defineTool({
    name: "job",
    description: "",
    schema: { type: "object", properties: {} } as const,
    handler: async () => {
      runs++;
      await gate.promise;
      return ok("finished");
    },
  });
  return { tool, open: () => gate.resolve(), runs: () => runs };
}
