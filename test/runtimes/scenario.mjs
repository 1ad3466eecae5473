// The runtime matrix's one scenario: what a route on any runtime does with toolrx, run from the
// packed tarball, with no Node built-in anywhere in its imports. Every runtime must print the same
// digest as Node does; test/runtimes/run-matrix.mjs compares them. Plain JavaScript, so Bun, Deno,
// workerd and Chromium all load it as written (or bundled by esbuild, as a user's bundler would).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import OpenAI from "openai";
import { lastValueFrom, Subject, toArray } from "rxjs";
import { approve, defineTool, memoryApprovalLedger, ok, runAgent, runToolCalls, streamAgent, streamToolCalls } from "toolrx";
import { toAgUiEvents } from "toolrx/ag-ui";
import { toUIMessageChunks, uiMessageStreamResponse } from "toolrx/ai-sdk";
import { mcpTools } from "toolrx/mcp";
import { openai } from "toolrx/providers";
import { scriptedModel } from "toolrx/testing";
import { z } from "zod";

const weather = defineTool({
  name: "weather",
  description: "Current weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

/** Waits for its signal: the deadline, or a cancel, is the only way out. */
function waiting(name, seen) {
  return defineTool({
    name,
    description: "Waits until aborted",
    schema: { type: "object", properties: {} },
    handler: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => {
          seen.push(`${name}: aborted`);
          reject(ctx.signal.reason);
        });
      }),
  });
}

const refund = defineTool({
  name: "refund",
  description: "Refund an order",
  schema: z.object({ order: z.string() }),
  needsApproval: true,
  handler: ({ order }) => ok({ refunded: order }),
});

const contents = (messages) => messages.map((m) => `${m.role}${m.isError ? "!" : ""}: ${m.content ?? ""}`);

async function batch() {
  const seen = [];
  const { messages } = await runToolCalls(
    [
      { id: "c1", name: "weather", arguments: { city: "Lisbon" } },
      { id: "c2", name: "weather", arguments: { city: 42 } },
      { id: "c3", name: "slow", arguments: {} },
    ],
    [weather, waiting("slow", seen)],
    { toolTimeout: 40 },
  );
  return { messages: contents(messages), seen };
}

async function stream() {
  const events = await lastValueFrom(streamToolCalls([{ id: "s1", name: "weather", arguments: { city: "Oslo" } }], [weather]).pipe(toArray()));
  return events.map((e) => e.type);
}

async function cancellation() {
  const seen = [];
  const cancel = new Subject();
  const batchRun = runToolCalls(
    [
      { id: "k1", name: "hold", arguments: {} },
      { id: "k2", name: "weather", arguments: { city: "Rome" } },
    ],
    [weather, waiting("hold", seen)],
    { cancel, toolTimeout: 60_000 },
  );
  setTimeout(() => cancel.next("k1"), 20);
  const { messages } = await batchRun;
  const controller = new AbortController();
  const whole = runToolCalls([{ id: "a1", name: "hold", arguments: {} }], [waiting("hold", seen)], { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("page closed")), 20);
  const outcome = await whole.then(
    () => "resolved",
    (error) => `rejected: ${error?.message}`,
  );
  return { messages: contents(messages).map((m) => m.replace(/"error":".*"/, '"error":"…"')), seen, outcome };
}

async function approvals() {
  // Stateless, like a route: the turn depends on the conversation, not on how many requests came before.
  const model = () => (request) => {
    const answered = request.messages.some((m) => m.role === "tool");
    return scriptedModel([
      answered
        ? [
            { type: "text_delta", text: "Refunded A-1." },
            { type: "finish", reason: "stop" },
          ]
        : [{ type: "tool_call", call: { id: "r1", name: "refund", arguments: { order: "A-1" } } }],
    ])(request);
  };
  const server = { tools: [refund], approvalSecret: "keep me on the server", approvalLedger: memoryApprovalLedger(), sessionId: "chat-1" };
  const messages = [{ role: "user", content: "Refund order A-1" }];
  const held = await runAgent({ ...server, model: model(), messages });
  const pending = held.metadata.pendingApprovals ?? [];
  const decided = [...held.messages, ...pending.map((p) => approve(p))];
  const done = await runAgent({ ...server, model: model(), messages: decided });
  const replay = await runAgent({ ...server, model: model(), messages: decided });
  return {
    held: held.haltedReason,
    token: pending.map((p) => p.token?.slice(0, 3)),
    done: done.haltedReason,
    last: done.messages.at(-1)?.content,
    replay: replay.haltedReason,
    replayError: replay.metadata?.error?.reason ?? replay.metadata?.error?.name ?? null,
  };
}

function agentOptions() {
  const model = scriptedModel([
    [
      { type: "text_delta", text: "Checking. " },
      { type: "tool_call", call: { id: "w1", name: "weather", arguments: { city: "Lisbon" } } },
    ],
    [
      { type: "text_delta", text: "Sunny in Lisbon." },
      { type: "finish", reason: "stop" },
    ],
  ]);
  return { model, tools: [weather], messages: [{ role: "user", content: "Weather in Lisbon?" }] };
}

async function uiStream() {
  const options = agentOptions();
  const chunks = await lastValueFrom(streamAgent(options).pipe(toUIMessageChunks({ messageId: "m1" }), toArray()));
  const response = uiMessageStreamResponse(streamAgent(agentOptions()).pipe(toUIMessageChunks({ messageId: "m2" })));
  const body = await response.text();
  const frames = body.split("\n\n").filter((f) => f.startsWith("data: "));
  return {
    chunks: chunks.map((c) => c.type),
    status: response.status,
    header: response.headers.get("x-vercel-ai-ui-message-stream"),
    frames: frames.length,
    done: frames.at(-1),
  };
}

async function agUi() {
  const options = agentOptions();
  const events = await lastValueFrom(streamAgent(options).pipe(toAgUiEvents({ threadId: "t1", runId: "r1", messages: options.messages }), toArray()));
  return events.map((e) => e.type);
}

async function provider(providerUrl) {
  const client = new OpenAI({ apiKey: "test", baseURL: `${providerUrl}/v1`, dangerouslyAllowBrowser: true, maxRetries: 0 });
  const run = await runAgent({
    model: openai.chatModel({ client, model: "gpt-test" }),
    tools: [weather],
    messages: [{ role: "user", content: "Weather in Porto?" }],
  });
  return { halted: run.haltedReason, messages: contents(run.messages) };
}

async function mcp(mcpUrl) {
  const client = new Client({ name: "runtime-matrix", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const tools = await mcpTools({ remote: client });
    const { messages } = await runToolCalls([{ id: "m1", name: "remote__forecast", arguments: { city: "Oslo" } }], tools, { toolTimeout: 10_000 });
    return { tools: tools.map((t) => t.name), messages: contents(messages) };
  } finally {
    await client.close();
  }
}

/**
 * Runs every part and returns a digest that must be the same on every runtime. A part that throws
 * is recorded as its error, so one broken part names itself instead of hiding the others.
 */
export async function scenario({ providerUrl, mcpUrl }) {
  const parts = {
    batch,
    stream,
    cancellation,
    approvals,
    uiStream,
    agUi,
    provider: () => provider(providerUrl),
    mcp: () => mcp(mcpUrl),
  };
  const digest = {};
  for (const [name, part] of Object.entries(parts)) {
    try {
      digest[name] = await part();
    } catch (error) {
      digest[name] = { threw: `${error?.name}: ${error?.message}` };
    }
  }
  return digest;
}

/**
 * What importing each Node-only subpath does here: `"loads"`, or the error's message. On Node
 * (and runtimes with Node's built-ins) they load; elsewhere each must fail with an error that
 * names the runtime, never an obscure resolution failure.
 */
export async function nodeOnly() {
  const outcome = {};
  const load = {
    "toolrx/node": () => import("toolrx/node"),
    "toolrx/bullmq": () => import("toolrx/bullmq"),
    "toolrx/code-mode": () => import("toolrx/code-mode"),
  };
  for (const [name, importIt] of Object.entries(load)) {
    try {
      await importIt();
      outcome[name] = "loads";
    } catch (error) {
      outcome[name] = String(error?.message ?? error);
    }
  }
  return outcome;
}
