import { sseOf, type ProviderApi, type ScriptedReply } from "./provider-frames.js";

export type { ProviderApi, ScriptedReply } from "./provider-frames.js";

/** A request the server got. */
export interface ProviderRequest {
  readonly api: ProviderApi;
  /** The JSON body, as the SDK sent it. */
  readonly body: Record<string, unknown>;
}

/** A local stand-in for the OpenAI and Anthropic APIs; see {@link startProviderServer}. */
export interface ProviderServer {
  /** `baseURL` for `new OpenAI({ baseURL, apiKey })` (it ends in `/v1`). */
  readonly openaiBaseURL: string;
  /** `baseURL` for `new Anthropic({ baseURL, apiKey })`. */
  readonly anthropicBaseURL: string;
  /** Every request, in arrival order. */
  readonly requests: readonly ProviderRequest[];
  /** Queue replies: each streaming request, to whichever API, plays the next one. */
  reply(...replies: readonly ScriptedReply[]): void;
  close(): Promise<void>;
}

/**
 * A local server that plays scripted replies to the real `openai` and `@anthropic-ai/sdk` clients,
 * streamed as each API streams them (text and each call's argument JSON in pieces, usage, finish
 * reasons), so an agent on toolrx's provider models runs end to end in a test, with no key and no
 * network. It listens on 127.0.0.1 on a free port; a streaming request with no reply queued is
 * answered 500 with the provider's error shape, which the SDK raises. Node only (`node:http`).
 *
 * @example
 * const server = await startProviderServer();
 * server.reply({ calls: [{ name: "weather", arguments: { city: "Oslo" } }] }, { text: "Sunny." });
 * const client = new OpenAI({ baseURL: server.openaiBaseURL, apiKey: "test" });
 * await runAgent({ model: openai.chatModel({ client, model: "gpt-test" }), tools: [weather], messages });
 * await server.close();
 */
export async function startProviderServer(): Promise<ProviderServer> {
  const { createServer } = await import("node:http");
  const requests: ProviderRequest[] = [];
  const queue: ScriptedReply[] = [];
  let played = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      const api: ProviderApi | undefined = path.endsWith("/chat/completions")
        ? "chat"
        : path.endsWith("/responses")
          ? "responses"
          : path.endsWith("/messages")
            ? "anthropic"
            : undefined;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      } catch {
        // an unreadable body is recorded as empty, and answered below
      }
      if (api === undefined || req.method !== "POST") return fail(res, 404, api ?? "chat", `no such endpoint: ${req.method} ${path}`);
      requests.push({ api, body });
      const reply = queue.shift();
      if (reply === undefined) return fail(res, 500, api, "the provider server has no scripted reply left for this request");
      let sse: string;
      try {
        sse = sseOf(api, reply, played++);
      } catch (e) {
        return fail(res, 500, api, (e as Error).message);
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(sse);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    openaiBaseURL: `${origin}/v1`,
    anthropicBaseURL: origin,
    requests,
    reply: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function fail(res: import("node:http").ServerResponse, status: number, api: ProviderApi, message: string): void {
  const body =
    api === "anthropic" ? { type: "error", error: { type: "api_error", message } } : { error: { message, type: "server_error", code: null, param: null } };
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
