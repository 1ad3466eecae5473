/**
 * A local stand-in for the OpenAI and Anthropic APIs, for running README snippets that call
 * them unchanged. It listens on 127.0.0.1, records every request, and answers with wire
 * responses typed against the official SDKs, so a shape the SDKs would not parse fails
 * `tsc`. Requests without the fake API key are refused (401), like the real APIs would. The
 * model it plays always wants the weather in Paris.
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
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import {
  anthropicEvents,
  anthropicTextTurn,
  CHAT_DONE,
  chatChunk,
  chatTextTurn,
  chatToolDelta,
  responses,
  responsesTextTurn,
  sseText,
  type SseFrame,
  type StreamScript,
} from "./fake-streams.js";

/** The ids the fake model gives its calls and responses, for the tests to look for. */
export const FAKE_IDS = {
  chatCompletion: "chatcmpl_fake_1",
  chatToolCall: "call_fake_chat_weather",
  response: "resp_fake_1",
  followUpResponse: "resp_fake_2",
  responsesToolCall: "call_fake_responses_weather",
  anthropicMessage: "msg_fake_1",
  anthropicToolUse: "toolu_fake_weather",
} as const;

const KEYS = { openai: "sk-fake-openai", anthropic: "sk-ant-fake" } as const;

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as received. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body, parsed (`undefined` when there was none). */
  readonly body: unknown;
}

/** The fields of a request body the fake reads. */
interface RequestBody {
  model?: string;
  tools?: unknown[];
  previous_response_id?: string;
  stream?: boolean;
  /** Chat Completions and Anthropic. */
  messages?: { role?: string; content?: unknown }[];
  /** Responses. */
  input?: { type?: string; role?: string }[] | string;
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

const WEATHER_ARGUMENTS = { city: "Paris" };

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
  if (!carriesKey(request.headers, key)) return fail(res, 401, "authentication_error", "the request does not carry the fake API key");
  switch (endpoint) {
    case "POST /v1/chat/completions":
      if (body.stream === true) return stream("chat", res, () => chatWeatherTurn(body));
      return send(res, 200, chatCompletion(body));
    case "POST /v1/responses":
      if (body.stream === true) return stream("responses", res, () => responsesWeatherTurn(body));
      if (body.previous_response_id === undefined) return send(res, 200, functionCallResponse(body));
      if (body.previous_response_id === FAKE_IDS.response) return send(res, 200, messageResponse(body));
      return fail(res, 400, "invalid_request_error", `unknown previous_response_id ${body.previous_response_id}`);
    case "POST /v1/messages":
      if (body.stream === true) return stream("anthropic", res, () => anthropicWeatherTurn(body));
      return send(res, 200, toolUseMessage(body));
    default:
      return fail(res, 404, "not_found_error", `the fake provider has no ${endpoint}`);
  }
}

/** The fake model's answer once it has the weather, streamed in these two deltas. */
export const WEATHER_ANSWER_DELTAS = ["It is 21°C ", "in Paris."] as const;

/** Whether the conversation ends with the answer to a tool call, in any of the three formats. */
function answered(body: RequestBody): boolean {
  const last = Array.isArray(body.input) ? body.input.at(-1) : body.messages?.at(-1);
  if (last === undefined) return false;
  if ("type" in last && last.type === "function_call_output") return true;
  if ("role" in last && last.role === "tool") return true;
  const content = (last as { content?: unknown }).content;
  return Array.isArray(content) && content.some((block: { type?: string }) => block.type === "tool_result");
}

/** Streamed Chat Completions weather turn: the call (its arguments in two deltas), or the answer. */
function chatWeatherTurn(body: RequestBody): SseFrame[] {
  if (answered(body)) return chatTextTurn(WEATHER_ANSWER_DELTAS);
  const args = JSON.stringify(WEATHER_ARGUMENTS);
  return [
    chatChunk({ role: "assistant", content: null }),
    chatToolDelta(0, args.slice(0, 5), { id: FAKE_IDS.chatToolCall, name: "weather" }),
    chatToolDelta(0, args.slice(5)),
    chatChunk({}, "tool_calls"),
    CHAT_DONE,
  ];
}

function responsesWeatherTurn(body: RequestBody): SseFrame[] {
  if (answered(body)) return responsesTextTurn(WEATHER_ANSWER_DELTAS);
  const args = JSON.stringify(WEATHER_ARGUMENTS);
  const [id, name] = [FAKE_IDS.responsesToolCall, "weather"];
  return [responses.created(), responses.callAdded(0, id, name), responses.argsDelta(0, args), responses.callDone(0, id, name, args), responses.completed()];
}

function anthropicWeatherTurn(body: RequestBody): SseFrame[] {
  if (answered(body)) return anthropicTextTurn(WEATHER_ANSWER_DELTAS);
  const e = anthropicEvents;
  const args = JSON.stringify(WEATHER_ARGUMENTS);
  return [
    e.start(),
    e.textStart(0),
    e.text(0, "Let me check the weather."),
    e.stop(0),
    e.toolStart(1, FAKE_IDS.anthropicToolUse, "weather"),
    e.json(1, args.slice(0, 5)),
    e.json(1, args.slice(5)),
    e.stop(1),
    e.delta("tool_use"),
    e.messageStop(),
  ];
}

/** Chat Completions: the assistant calls `weather` for Paris. */
function chatCompletion(body: RequestBody): OpenAI.Chat.Completions.ChatCompletion {
  return {
    id: FAKE_IDS.chatCompletion,
    object: "chat.completion",
    created: 1_700_000_000,
    model: String(body.model),
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            { id: FAKE_IDS.chatToolCall, type: "function", function: { name: "weather", arguments: JSON.stringify(WEATHER_ARGUMENTS) } },
          ],
        },
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
  };
}

/** Responses API, first turn: one `function_call` item calling `weather` for Paris. */
function functionCallResponse(body: RequestBody): WireResponse {
  return response(FAKE_IDS.response, body, [
    {
      type: "function_call",
      id: "fc_fake_1",
      call_id: FAKE_IDS.responsesToolCall,
      name: "weather",
      arguments: JSON.stringify(WEATHER_ARGUMENTS),
      status: "completed",
    },
  ]);
}

/** Responses API, after the tool output: a plain assistant message. */
function messageResponse(body: RequestBody): WireResponse {
  return response(FAKE_IDS.followUpResponse, body, [
    {
      type: "message",
      id: "msg_fake_2",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "It is 21°C in Paris.", annotations: [] }],
    },
  ]);
}

/** `output_text` is not on the wire: the SDK adds it. */
type WireResponse = Omit<OpenAI.Responses.Response, "output_text">;

function response(id: string, body: RequestBody, output: OpenAI.Responses.ResponseOutputItem[]): WireResponse {
  return {
    id,
    object: "response",
    created_at: 1_700_000_000,
    status: "completed",
    model: String(body.model),
    output,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    top_p: 1,
    tool_choice: "auto",
    tools: (body.tools ?? []) as OpenAI.Responses.Tool[],
    previous_response_id: body.previous_response_id ?? null,
    usage: {
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 20,
    },
  };
}

/** Messages API: the assistant answers with one `tool_use` block calling `weather` for Paris. */
function toolUseMessage(body: RequestBody): Anthropic.Messages.Message {
  return {
    id: FAKE_IDS.anthropicMessage,
    type: "message",
    role: "assistant",
    model: String(body.model),
    content: [
      { type: "text", text: "Let me check the weather.", citations: null },
      { type: "tool_use", id: FAKE_IDS.anthropicToolUse, name: "weather", input: WEATHER_ARGUMENTS, caller: { type: "direct" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: {
      input_tokens: 12,
      output_tokens: 8,
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    },
  };
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
