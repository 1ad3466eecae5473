/**
 * A local server that answers each POST with the next Server-Sent Events stream a test queued,
 * written frame by frame in the provider's own wire format, and records every request's path and
 * JSON body: the round-trip tests script a provider's first reply exactly as its API streams it
 * and read what the client sent back on the next request. Node only (`node:http`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One SSE frame: `data` is JSON-encoded unless it is a string (`[DONE]`); `event` names it when the API names its events. */
export interface WireFrame {
  readonly event?: string;
  readonly data: unknown;
}

export interface WireRequest {
  /** Path and query, as received. */
  readonly path: string;
  readonly body: Record<string, unknown>;
}

export interface WireServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request, in arrival order. */
  readonly requests: readonly WireRequest[];
  /** Queue streams, as frames or as SSE text already written: each request plays the next one. */
  reply(...streams: readonly (readonly WireFrame[] | string)[]): void;
  close(): Promise<void>;
}

export async function startWireServer(): Promise<WireServer> {
  const requests: WireRequest[] = [];
  const queue: (readonly WireFrame[] | string)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({ path: req.url ?? "", body: text === "" ? {} : JSON.parse(text) });
      const frames = queue.shift();
      if (frames === undefined) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "the wire server has no stream left for this request", code: 500 } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(
        typeof frames === "string"
          ? frames
          : frames
              .map((f) => `${f.event === undefined ? "" : `event: ${f.event}\n`}data: ${typeof f.data === "string" ? f.data : JSON.stringify(f.data)}\n\n`)
              .join(""),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    reply: (...streams) => void queue.push(...streams),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
