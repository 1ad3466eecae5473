// Servers on revision 2026-07-28 for the tasks extension tests: toolrx's serveTools, reached in
// memory (the SDK's web handler through the client's fetch) or over Streamable HTTP (node:http).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import type { Tool } from "../../src/index.js";
import { serveTools, type ServeToolsOptions } from "../../src/mcp/index.js";

export type Reach = "memory" | "http";
export const REACHES: readonly Reach[] = ["memory", "http"];

type Factory = () => Server;

/** A fetch that reaches the server made by `factory`, in memory or through a real HTTP server. */
export async function fetchOf(reach: Reach, factory: Factory, closers: (() => Promise<void>)[]): Promise<typeof fetch> {
  const handler = createMcpHandler(factory);
  closers.push(() => handler.close());
  if (reach === "memory") return ((url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init))) as typeof fetch;
  const http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
    const answer = await handler.fetch(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method, headers, body }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
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
export async function servedOnExt(reach: Reach, tools: readonly Tool[], options: ServeToolsOptions, closers: (() => Promise<void>)[]): Promise<Client> {
  const factory = () => {
    const server = new Server({ name: "toolrx", version: "1.0.0" });
    serveTools(server, tools, options);
    return server;
  };
  return modernClient(await fetchOf(reach, factory, closers), closers);
}
