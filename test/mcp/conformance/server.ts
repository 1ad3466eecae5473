// serveTools over Streamable HTTP on node:http, as docs/mcp.md wires it on each SDK line, for
// the official conformance suite: 1.x with a session per client (StreamableHTTPServerTransport),
// 2.x with the SDK's web handler (createMcpHandler, a server per request).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpHandler, Server as ServerV2 } from "@modelcontextprotocol/server";
import { serveTools } from "../../../src/mcp/index.js";
import { conformanceTools } from "./tools.js";

/** A running server: its endpoint, and how to stop it. */
export interface ConformanceServer {
  readonly url: string;
  close(): Promise<void>;
}

/** A server on 127.0.0.1 serving the suite's tools through toolrx on SDK line `line`. */
export async function startConformanceServer(line: "v1" | "v2"): Promise<ConformanceServer> {
  const handle = line === "v1" ? v1Handler() : v2Handler();
  const http = createServer((req, res) => {
    // DNS rebinding: a local server answers only requests addressed to a local host.
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (!["localhost", "127.0.0.1", "[::1]"].includes(host)) {
      res.writeHead(403).end("Forbidden host");
      return;
    }
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

type Handle = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function v1Handler(): Handle {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) sessions.delete(created.sessionId);
      };
      const server = new ServerV1({ name: "toolrx-conformance", version: "1.0.0" });
      serveTools(server, conformanceTools);
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };
}

function v2Handler(): Handle {
  const handler = createMcpHandler(() => {
    const server = new ServerV2({ name: "toolrx-conformance", version: "1.0.0" });
    serveTools(server, conformanceTools);
    return server;
  });
  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
    const answer = await handler.fetch(new Request(`http://${req.headers.host}${req.url ?? "/"}`, { method: req.method, headers, body }));
    const out: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      out[key] = value;
    });
    res.writeHead(answer.status, out);
    if (answer.body === null) res.end();
    else Readable.fromWeb(answer.body as never).pipe(res);
  };
}

// Run directly (`tsx test/mcp/conformance/server.ts v1`): serve until killed, printing the URL.
if (process.argv[1]?.endsWith("conformance/server.ts")) {
  const line = process.argv[2] === "v2" ? "v2" : "v1";
  startConformanceServer(line).then((s) => console.log(s.url));
}
