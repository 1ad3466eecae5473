/**
 * A `useChat` page on a toolrx backend: the AI SDK's own front end, unchanged, and a plain
 * node:http server that streams toolrx's agent loop as the AI SDK's UI message stream. The page
 * (page.ts, React and `useChat` from npm) is bundled by esbuild when the server starts; no CDN.
 * The model is scripted (no key, no network): it plans a trip, asks which hotel (answered in the
 * page), and books it once the page approves. Each request is the whole conversation, as
 * `useChat` posts it; the answers resume the run. A call's own Stop button cancels that call
 * alone (`cancel`, toolrx's call control) while the rest of the turn goes on; stopping the chat,
 * or closing the tab, cancels the response, which aborts every running handler.
 *
 * Run: npm run example:ui   (then open the printed address)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { UIMessage } from "ai";
import { build } from "esbuild";
import { Subject } from "rxjs";
import { fromUIMessages, toUIMessageChunks, uiMessageStreamResponse } from "../../src/ai-sdk/index.js";
import { streamAgent } from "../../src/index.js";
import { tools, tripModel } from "./agent.js";

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolrx × useChat</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f6f6f4; color: #222; }
  main { max-width: 720px; margin: 0 auto; padding: 12px; }
  h1 { font-size: 18px; }
  .message { background: #fff; border-radius: 8px; padding: 8px 10px; margin: 8px 0; }
  .message.user { background: #e7f0ff; }
  .call { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; border-top: 1px solid #eee; padding: 6px 0; }
  .call .name { font-weight: 600; }
  .call code { font-size: 12px; background: #f2f2f2; padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; max-width: 100%; }
  .call .state { font-size: 12px; color: #666; }
  .call progress { width: 100px; }
  .ask, .approval { display: flex; flex-wrap: wrap; gap: 6px; width: 100%; }
  input { flex: 1; min-width: 0; padding: 6px; font: inherit; }
  #composer { display: flex; gap: 6px; margin-top: 12px; }
  button { font: inherit; padding: 6px 10px; }
</style></head>
<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>`;

/** The page's script: React, `useChat` and page.ts in one bundle, from node_modules. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./page.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** The Stop buttons' channel into each run streaming now, by `useChat`'s chat id. */
const cancels = new Map<string, Subject<string>>();

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return body;
}

/** Answer `useChat`'s POST: its messages as the conversation, the run streamed back as UI message chunks. */
async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { id: chatId, messages } = JSON.parse(await bodyOf(req)) as { id?: unknown; messages: UIMessage[] };
  if (typeof chatId !== "string") return void res.writeHead(400).end("expected the chat's id");
  const cancel = new Subject<string>();
  cancels.set(chatId, cancel);
  res.on("close", () => cancels.get(chatId) === cancel && cancels.delete(chatId));
  // The secret stays here: a decision the page forges or edits fails closed before anything runs.
  // The chat's id is the conversation a token counts in: one minted in one chat is refused in
  // another. This example has no users; a server that has them takes only a chat id its store
  // says is the signed-in user's (whoever picks the sessionId picks where a token counts).
  const options = { model: tripModel, tools, messages: fromUIMessages(messages), approvalSecret: "keep me on the server", sessionId: chatId, cancel };
  const response = uiMessageStreamResponse(streamAgent(options).pipe(toUIMessageChunks({ originalMessages: messages })));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  // The page went away (stop, a closed tab): cancelling the body unsubscribes, which aborts the handlers.
  res.on("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** A call's Stop button: `{ chatId, toolCallId }`; that call alone is cancelled, the run goes on. */
async function stopCall(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { chatId, toolCallId } = JSON.parse(await bodyOf(req)) as { chatId?: unknown; toolCallId?: unknown };
  if (typeof chatId !== "string" || typeof toolCallId !== "string") return void res.writeHead(400).end("expected { chatId, toolCallId }");
  const channel = cancels.get(chatId);
  if (channel === undefined) return void res.writeHead(404).end("no run of that chat is streaming");
  channel.next(toolCallId);
  res.writeHead(202).end();
}

/** Start the example server on `port` (0: any free port). */
export async function startServer(port = 0): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const script = await bundlePage();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    if (req.method === "GET" && url.pathname === "/page.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    if (req.method === "POST" && url.pathname === "/api/chat") {
      chat(req, res).catch(() => res.headersSent || res.writeHead(400).end());
      return;
    }
    if (req.method === "POST" && url.pathname === "/api/cancel") {
      stopCall(req, res).catch(() => res.headersSent || res.writeHead(400).end());
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await startServer(Number(process.env.PORT ?? 3000));
  console.log(`toolrx × useChat: open ${url}`);
}
