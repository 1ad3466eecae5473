// A toolrx server over Streamable HTTP with sessions (the 1.x SDK's transport, one Server per
// session, as the SDK's examples and the conformance suite's own servers run): the server keeps
// what the client declared at `initialize`, which asking the client during a call needs.
// Run directly (`npx tsx test/mcp/support/session-http-server.ts [port]`) it serves the conformance tools.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Tool } from "../../../src/index.js";
import { serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";
import { CONFORMANCE_TOOLS } from "./conformance-tools.js";

/** A running server: its endpoint, and `close` for it and every session. */
export interface SessionHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serve `tools` on a port of 127.0.0.1 (`0`: a free one), a session per `initialize`. */
export async function startSessionHttpServer(tools: readonly Tool[], options?: ServeToolsOptions, port = 0): Promise<SessionHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers = new Set<ServerV1>();
  const http: HttpServer = createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known !== undefined) return known.handleRequest(req, res);
    if (req.method !== "POST") {
      res.writeHead(400).end("Invalid or missing session ID");
      return;
    }
    const body = await bodyOf(req);
    const server = new ServerV1({ name: "toolrx", version: "1.0.0" });
    serveTools(server, tools, options);
    servers.add(server);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await Promise.all([...servers].map((s) => s.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await startSessionHttpServer(CONFORMANCE_TOOLS, {}, Number(process.argv[2] ?? 0));
  console.log(running.url);
}
