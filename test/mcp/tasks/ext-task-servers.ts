// Servers on revision 2026-07-28 for the tasks extension tests: toolrx's serveTools, reached in
// memory (the SDK's web handler through the client's fetch) or over Streamable HTTP (node:http).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import type { Tool } from "../../../src/index.js";
import { McpTaskStore, serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";
import { setRequestHandler } from "../../../src/mcp/wire/server-like.js";

export type Reach = "memory" | "http";
export const REACHES: readonly Reach[] = ["memory", "http"];

type Factory = () => Server;

/** One JSON-RPC exchange as it crossed the wire: the request and, once read, the server's answer. */
export interface Exchange {
  request: Record<string, unknown>;
  response?: Record<string, unknown>;
}

/** The JSON-RPC messages of a body: plain JSON or the `data:` lines of an event stream. */
function messagesOf(text: string): Record<string, unknown>[] {
  const t = text.trim();
  if (t === "") return [];
  if (t.startsWith("{") || t.startsWith("[")) return [JSON.parse(t)].flat();
  return t
    .split("\n")
    .filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "")
    .map((l) => JSON.parse(l.slice(5)));
}

/** The handler's fetch, each exchange recorded in `wire`. */
function recorded(handler: { fetch(request: Request): Promise<Response> }, wire: Exchange[]): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.method === "POST" ? await request.clone().text() : "";
    const answer = await handler.fetch(request);
    for (const message of messagesOf(body)) {
      if (message.method === undefined || message.id === undefined) continue;
      const exchange: Exchange = { request: message };
      wire.push(exchange);
      void answer
        .clone()
        .text()
        .then(
          (text) => {
            exchange.response = messagesOf(text).find((m) => m.id === message.id);
          },
          () => {},
        );
    }
    return answer;
  };
}

/** A fetch that reaches the server made by `factory`, in memory or through a real HTTP server; `wire` records what crossed. */
export async function fetchOf(reach: Reach, factory: Factory, closers: (() => Promise<void>)[], wire: Exchange[] = []): Promise<typeof fetch> {
  const handler = createMcpHandler(factory);
  closers.push(() => handler.close());
  const serve = recorded(handler, wire);
  if (reach === "memory") return ((url: string | URL, init?: RequestInit) => serve(new Request(url, init))) as typeof fetch;
  const http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
    const answer = await serve(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method, headers, body }));
    const out: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      out[key] = value;
    });
    res.writeHead(answer.status, out);
    if (answer.body === null) res.end();
    else Readable.fromWeb(answer.body as never).pipe(res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return ((url: string | URL, init?: RequestInit) => fetch(new URL(new URL(url).pathname, base), init)) as typeof fetch;
}

/** A 2.x client on revision 2026-07-28, connected through `fetchFn`. */
export async function modernClient(fetchFn: typeof fetch, closers: (() => Promise<void>)[]): Promise<Client> {
  const client = new Client(
    { name: "toolrx-test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL("http://toolrx.test/mcp"), { fetch: fetchFn }));
  closers.unshift(() => client.close());
  return client;
}

/** toolrx's serveTools (a server per request, as the SDK's web handler makes them) and a client on 2026-07-28. */
export async function servedOnExt(
  reach: Reach,
  tools: readonly Tool[],
  options: ServeToolsOptions,
  closers: (() => Promise<void>)[],
  wire: Exchange[] = [],
): Promise<Client> {
  // The web handler makes a server per request: they share one task store, as a deployment would.
  const shared = options.tasks === undefined ? options : { ...options, tasks: { store: new McpTaskStore(), ...options.tasks } };
  const factory = () => {
    const server = new Server({ name: "toolrx", version: "1.0.0" });
    serveTools(server, tools, shared);
    return server;
  };
  return modernClient(await fetchOf(reach, factory, closers, wire), closers);
}

type RawHandler = (params: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * A hand-written server of the tasks extension on the 2.x SDK: it declares the extension and
 * answers `tools/call` (one tool, `job`), `tasks/get`, `tasks/update` and `tasks/cancel` as the
 * test says, in memory. `seen` gets each request's method and params.
 */
export async function rawExtServer(
  handlers: { call: RawHandler; get?: RawHandler; update?: RawHandler; cancel?: RawHandler },
  closers: (() => Promise<void>)[],
  seen: { method: string; params: Record<string, unknown> }[] = [],
): Promise<Client> {
  const missing: RawHandler = () => {
    throw Object.assign(new Error("not here"), { code: -32601 });
  };
  const factory = () => {
    const server = new Server({ name: "raw", version: "1.0.0" });
    server.registerCapabilities({ tools: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } as never);
    setRequestHandler(server, "tools/list", async () => ({ tools: [{ name: "job", inputSchema: { type: "object", properties: {} } }] }));
    const route = (method: "tools/call" | "tasks/get" | "tasks/update" | "tasks/cancel", handler: RawHandler) =>
      setRequestHandler(server, method, async (request, rctx) => {
        // The SDK lifts a 2026-07-28 request's inputResponses out of its params.
        const params = { ...request.params, ...(rctx.inputResponses === undefined ? {} : { inputResponses: rctx.inputResponses }) } as Record<string, unknown>;
        seen.push({ method, params });
        return handler(params);
      });
    route("tools/call", handlers.call);
    route("tasks/get", handlers.get ?? missing);
    route("tasks/update", handlers.update ?? missing);
    route("tasks/cancel", handlers.cancel ?? missing);
    return server;
  };
  return modernClient(await fetchOf("memory", factory, closers), closers);
}

/** A task as the extension describes it. */
export function extTaskOf(taskId: unknown, status: unknown, more: Record<string, unknown> = {}): Record<string, unknown> {
  const now = new Date().toISOString();
  return { taskId, status, createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 10, ...more };
}
