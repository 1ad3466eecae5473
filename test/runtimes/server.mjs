// The runtime matrix's local peer, on Node: one origin on 127.0.0.1 that serves an OpenAI-style
// streaming chat API (/v1/chat/completions), an MCP server over Streamable HTTP (/mcp, toolrx's own
// serveTools on the SDK's stateless transport) and, for Chromium, the page and its bundle (/, /app.js).
// One origin, so the browser needs no CORS; the other runtimes reach it over fetch like any server.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const sse = (frames) => `${frames.map((f) => `data: ${typeof f === "string" ? f : JSON.stringify(f)}\n\n`).join("")}`;
const chunk = (delta, finish_reason = null) => ({
  id: "chatcmpl-matrix",
  object: "chat.completion.chunk",
  created: 0,
  model: "gpt-test",
  choices: [{ index: 0, delta, finish_reason }],
});

/** The model the matrix plays: a weather call for Porto, then a sentence built from the tool's answer. */
function chatTurn(body) {
  const answered = body.messages.findLast?.((m) => m.role === "tool") ?? [...body.messages].reverse().find((m) => m.role === "tool");
  if (answered === undefined) {
    return sse([
      chunk({ role: "assistant", content: "" }),
      chunk({ tool_calls: [{ index: 0, id: "call_porto", type: "function", function: { name: "weather", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Porto"}' } }] }),
      chunk({}, "tool_calls"),
      "[DONE]",
    ]);
  }
  const { tempC } = JSON.parse(answered.content);
  return sse([chunk({ role: "assistant", content: "It is " }), chunk({ content: `${tempC}°C in Porto.` }), chunk({}, "stop"), "[DONE]"]);
}

async function readBody(req) {
  let text = "";
  for await (const part of req) text += part;
  return text === "" ? undefined : JSON.parse(text);
}

/**
 * Starts the peer. `dist` is the root of the built package (the server side is Node, so it uses the
 * repository's build); `page` holds Chromium's files once they are bundled.
 */
export async function startPeer({ dist }) {
  const { defineTool, ok } = await import(`${dist}/index.js`);
  const { serveTools } = await import(`${dist}/mcp/index.js`);
  const forecast = defineTool({
    name: "forecast",
    description: "Forecast by city",
    schema: z.object({ city: z.string() }),
    handler: ({ city }) => ok({ city, sky: "rain" }),
  });
  const page = { html: "", script: "" };
  const http = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/v1/chat/completions" && req.method === "POST") {
        const body = await readBody(req);
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.end(chatTurn(body));
      } else if (path === "/mcp") {
        const server = new Server({ name: "matrix", version: "1.0.0" });
        serveTools(server, [forecast]);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on("close", () => void server.close());
        await server.connect(transport);
        await transport.handleRequest(req, res);
      } else if (path === "/") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page.html);
      } else if (path === "/app.js") {
        res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(page.script);
      } else {
        res.writeHead(404).end();
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${http.address().port}`;
  return {
    origin,
    urls: { providerUrl: origin, mcpUrl: `${origin}/mcp` },
    /** Serve Chromium's page: the bundle at /app.js, loaded by a module script. */
    servePage(bundleFile) {
      page.script = readFileSync(bundleFile, "utf8");
      page.html = '<!doctype html><meta charset="utf-8"><title>toolrx runtime matrix</title><script type="module" src="/app.js"></script>';
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
