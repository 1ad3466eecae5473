/**
 * A local stand-in for the OpenAI and Anthropic APIs, for running README snippets that call
 * them unchanged and for driving the SDKs in tests. It listens on 127.0.0.1, records every
 * request, and answers with wire responses typed against the official SDKs (fake-weather.ts),
 * so a shape the SDKs would not parse fails `tsc`. Requests without the fake API key are
 * refused (401), like the real APIs would. The model it plays always wants the weather in Paris.
 *
 * Streaming requests (`stream: true`) are answered in the APIs' real Server-Sent Events format
 * (fake-streams.ts): by default the same weather turn (a tool call, or once the conversation
 * ends with the tool's answer, the text "It is 21°C in Paris."), or by the script a test queued
 * with `queueStream`. The server records when a client closes a stream before its end, so tests
 * can check that an abort reaches the wire.
 *
 * Paths are the real ones: the OpenAI SDK appends `/chat/completions` and `/responses` to its
 * base URL, whose default (`https://api.openai.com/v1`) includes `/v1`; the Anthropic SDK
 * appends `/v1/messages` to a base URL without it (`https://api.anthropic.com`). So `env`
 * points `OPENAI_BASE_URL` at `<origin>/v1` and `ANTHROPIC_BASE_URL` at `<origin>`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sseText, type SseFrame, type StreamScript } from "./fake-streams.js";
import {
  anthropicWeatherTurn,
  chatCompletion,
  chatWeatherTurn,
  FAKE_IDS,
  functionCallResponse,
  messageResponse,
  responsesWeatherTurn,
  toolUseMessage,
  type RequestBody,
} from "./fake-weather.js";

export { FAKE_IDS };

const KEYS = { openai: "sk-fake-openai", anthropic: "sk-ant-fake" } as const;

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as received. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body, parsed (`undefined` when there was none). */
  readonly body: unknown;
}

/** The three streaming endpoints, as `queueStream` names them. */
export type StreamingApi = "chat" | "responses" | "anthropic";

/** One streamed response the fake sent. */
export interface StreamRecord {
  readonly api: StreamingApi;
  /** Resolves when the client closed the connection before the fake ended the stream. */
  readonly closedByClient: Promise<void>;
}

export interface FakeProviders {
  /** Every request received, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Every streamed response, in arrival order. */
  readonly streams: readonly StreamRecord[];
  /** Answer the next streaming request to `api` with `script` (in queue order), instead of the default weather turn. */
  queueStream(api: StreamingApi, script: StreamScript): void;
  /** The environment that points `new OpenAI()` and `new Anthropic()` at this server. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export async function startFakeProviders(): Promise<FakeProviders> {
  const requests: RecordedRequest[] = [];
  const streams: StreamRecord[] = [];
  const queues: Record<StreamingApi, StreamScript[]> = { chat: [], responses: [], anthropic: [] };
  const streamer = (api: StreamingApi, res: ServerResponse, fallback: () => readonly SseFrame[]) => {
    const script = queues[api].shift() ?? { frames: fallback() };
    if ("status" in script) return fail(res, script.status, script.error.type, script.error.message);
    streams.push({ api, closedByClient: new Promise((resolve) => res.once("close", () => !res.writableEnded && resolve())) });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(sseText(script.frames));
    if (!script.hang) res.end();
  };
  const server = createServer((req, res) => {
    readJson(req).then(
      (body) => {
        const request: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
        requests.push(request);
        route(request, res, streamer);
      },
      (error: unknown) => fail(res, 400, "invalid_request_error", `body is not JSON: ${String(error)}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    requests,
    streams,
    queueStream: (api, script) => void queues[api].push(script),
    env: {
      OPENAI_API_KEY: KEYS.openai,
      OPENAI_BASE_URL: `${origin}/v1`,
      ANTHROPIC_API_KEY: KEYS.anthropic,
      ANTHROPIC_BASE_URL: origin,
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // the SDKs' fetch keeps connections alive
      }),
  };
}

/** Sets `vars` in `process.env`; the returned function puts back what was there (or nothing). */
export function setEnv(vars: Readonly<Record<string, string>>): () => void {
  const saved = Object.keys(vars).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, vars);
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

type Streamer = (api: StreamingApi, res: ServerResponse, fallback: () => readonly SseFrame[]) => void;

function route(request: RecordedRequest, res: ServerResponse, stream: Streamer): void {
  const endpoint = `${request.method} ${request.path.split("?")[0]}`;
  const body = (request.body ?? {}) as RequestBody;
  const key = endpoint === "POST /v1/messages" ? KEYS.anthropic : KEYS.openai;
  if (!carriesKey(request.headers, key)) {
    fail(res, 401, "authentication_error", "the request does not carry the fake API key");
    return;
  }
  switch (endpoint) {
    case "POST /v1/chat/completions":
      if (body.stream === true) {
        stream("chat", res, () => chatWeatherTurn(body));
        return;
      }
      send(res, 200, chatCompletion(body));
      return;
    case "POST /v1/responses":
      if (body.stream === true) {
        stream("responses", res, () => responsesWeatherTurn(body));
        return;
      }
      if (body.previous_response_id === undefined) {
        send(res, 200, functionCallResponse(body));
        return;
      }
      if (body.previous_response_id === FAKE_IDS.response) {
        send(res, 200, messageResponse(body));
        return;
      }
      fail(res, 400, "invalid_request_error", `unknown previous_response_id ${body.previous_response_id}`);
      return;
    case "POST /v1/messages":
      if (body.stream === true) {
        stream("anthropic", res, () => anthropicWeatherTurn(body));
        return;
      }
      send(res, 200, toolUseMessage(body));
      return;
    default:
      fail(res, 404, "not_found_error", `the fake provider has no ${endpoint}`);
      return;
  }
}

/** The SDKs send the key as a bearer token (Anthropic's may also use `x-api-key`). */
function carriesKey(headers: IncomingHttpHeaders, key: string): boolean {
  return headers.authorization === `Bearer ${key}` || headers["x-api-key"] === key;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", reject);
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        resolve(text === "" ? undefined : JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function fail(res: ServerResponse, status: number, type: string, message: string): void {
  send(res, status, { type: "error", error: { type, message } });
}
