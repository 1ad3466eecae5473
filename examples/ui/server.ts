/**
 * Streams a scripted turn's tool events to a browser as Server-Sent Events. No framework:
 * node:http and one static page. Closing the tab unsubscribes, which aborts the handlers.
 * Progress comes from the side channel (`onCallReport`); a "stop" button posts to `/cancel`,
 * which cancels that one call (`RunOptions.cancel`) while the rest of the turn goes on. Every
 * event is stamped with the server's time, so durations shown are the tools' own, not the
 * network's.
 *
 * Run: npm run example:ui   (then open the printed address)
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Subject } from "rxjs";
import { streamToolCalls, type CallCancellation } from "../../src/index.js";
import { calls, tools } from "./turn.js";

const page = fileURLToPath(new URL("./index.html", import.meta.url));

/** Start the example server on `port` (0: any free port). */
export async function startServer(port = 0): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const html = await readFile(page, "utf8");
  // One cancel channel per open page, so a "stop" reaches the turn that page is watching.
  const sessions = new Map<string, Subject<CallCancellation>>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
      return;
    }
    if (url.pathname === "/cancel" && req.method === "POST") {
      const cancel = sessions.get(url.searchParams.get("session") ?? "");
      const toolCallId = url.searchParams.get("id");
      if (cancel === undefined || toolCallId === null) {
        res.writeHead(404).end();
        return;
      }
      cancel.next({ toolCallId, reason: "stopped by the user" });
      res.writeHead(204).end();
      return;
    }
    if (url.pathname !== "/events") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    const t0 = performance.now();
    const at = () => Math.round(performance.now() - t0);
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const session = randomUUID();
    const cancel = new Subject<CallCancellation>();
    sessions.set(session, cancel);
    send("calls", { session, calls: calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) });
    const subscription = streamToolCalls(calls, tools, {
      maxConcurrency: 3,
      toolTimeout: 20_000,
      cancel,
      onCallReport: (report) => send("report", { at: at(), ...report }),
    }).subscribe({
      next: (event) => send("tool", { at: at(), ...event }),
      error: (e: unknown) => {
        send("failed", { message: e instanceof Error ? e.message : String(e) });
        res.end();
      },
      complete: () => {
        send("done", { at: at() });
        res.end();
      },
    });
    // A closed tab cancels the turn: every running handler sees its ctx.signal abort.
    req.on("close", () => {
      subscription.unsubscribe();
      sessions.delete(session);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/`,
    server,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startServer(Number(process.env.PORT ?? 3000));
  console.log(`toolrx UI example: open ${url}`);
}
