/**
 * Streams a scripted turn's tool events to a browser as Server-Sent Events. No framework:
 * node:http and one static page. Closing the tab unsubscribes, which aborts the handlers.
 *
 * Run: npm run example:ui   (then open the printed address)
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { streamToolCalls } from "../../src/index.js";
import { calls, tools } from "./turn.js";

const page = fileURLToPath(new URL("./index.html", import.meta.url));

/** Start the example server on `port` (0: any free port). */
export async function startServer(port = 0): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const html = await readFile(page, "utf8");
  const server = createServer((req, res) => {
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
      return;
    }
    if (req.url !== "/events") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send("calls", calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })));
    const subscription = streamToolCalls(calls, tools, { maxConcurrency: 3, toolTimeout: 5_000 }).subscribe({
      next: (event) => send("tool", event),
      error: (e: unknown) => {
        send("failed", { message: e instanceof Error ? e.message : String(e) });
        res.end();
      },
      complete: () => {
        send("done", {});
        res.end();
      },
    });
    // A closed tab cancels the turn: every running handler sees its ctx.signal abort.
    req.on("close", () => subscription.unsubscribe());
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
