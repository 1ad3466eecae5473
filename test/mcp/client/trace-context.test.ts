import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, trace, type Tracer } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as MemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, type Tool } from "../../../src/index.js";
import { mcpTools, serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";
import { telemetry } from "../../../src/otel/index.js";
import { otelHarness } from "../../support/otel-harness.js";
import { must } from "../../support/must.js";
import { LINES, type SdkLine } from "../support/servers";
import { startSessionHttpServer } from "../support/session-http-server";

const w3c = new W3CTraceContextPropagator();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string() }),
  handler: ({ city }) => ok({ city, tempC: 21 }),
});

async function served(line: SdkLine, tools: readonly Tool[], options: ServeToolsOptions): Promise<ClientV1 | ClientV2> {
  const server = line === "v1" ? new ServerV1({ name: "toolrx", version: "1.0.0" }) : new ServerV2({ name: "toolrx", version: "1.0.0" });
  serveTools(server, tools, options);
  const [a, b] = line === "v1" ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
  await server.connect(b as never);
  const client = line === "v1" ? new ClientV1({ name: "c", version: "1.0.0" }) : new ClientV2({ name: "c", version: "1.0.0" });
  await client.connect(a as never);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

/** Inside a root span `agent`, run `remote__weather` through the traced runner. */
function underAgent<T>(tracer: Tracer, fn: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan("agent", async (span) => {
    try {
      return await fn();
    } finally {
      span.end();
    }
  });
}

describe.each(LINES)("W3C trace context across an MCP call (SDK %s)", (line) => {
  it("puts the calling span in tools/call's _meta, and the served call's span continues it: one trace, the client's span its parent", async () => {
    const otel = otelHarness();
    const tele = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    const client = await served(line, [weather], { telemetry: tele });
    const tools = await mcpTools({ remote: client }, { telemetry: tele });
    const { messages } = await underAgent(otel.tracerProvider.getTracer("test"), () =>
      tele.runToolCalls([{ id: "c1", name: "remote__weather", arguments: { city: "Oslo" } }], tools),
    );
    expect(messages[0]?.content).toBe('{"city":"Oslo","tempC":21}');
    const root = otel.span("agent");
    const calling = otel.span("execute_tool remote__weather");
    const servedSpan = otel.span("execute_tool weather");
    expect(calling.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(servedSpan.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(servedSpan.parentSpanContext?.spanId).toBe(calling.spanContext().spanId);
    expect(servedSpan.parentSpanContext?.isRemote).toBe(true);
  });
});

describe("mcpTools with telemetry", () => {
  it("sends a traceparent (and tracestate) that OpenTelemetry's own W3C propagator reads back as the calling span", async () => {
    const otel = otelHarness();
    const tele = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    const metas: unknown[] = [];
    const server = new ServerV1({ name: "raw", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      metas.push(req.params._meta);
      return { content: [{ type: "text", text: "ok" }] };
    });
    const [a, b] = MemoryV1.createLinkedPair();
    await server.connect(b);
    const client = new ClientV1({ name: "c", version: "1.0.0" });
    await client.connect(a);
    closers.push(() => client.close());
    const tools = await mcpTools(client, { telemetry: tele });
    // A parent carrying vendor state: the state travels with the context.
    const parent = w3c.extract(
      ROOT_CONTEXT,
      { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "rojo=00f067aa0ba902b7" },
      defaultTextMapGetter,
    );
    await context.with(parent, () => tele.runToolCalls([{ id: "c1", name: "echo", arguments: {} }], tools));
    const calling = otel.span("execute_tool echo").spanContext();
    const meta = must(metas[0]) as Record<string, string>;
    const read = trace.getSpanContext(w3c.extract(ROOT_CONTEXT, meta, defaultTextMapGetter));
    expect(read).toMatchObject({ traceId: calling.traceId, spanId: calling.spanId, traceFlags: 1, isRemote: true });
    expect(meta.tracestate).toBe("rojo=00f067aa0ba902b7");
    expect(calling.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
  });

  it("adds nothing without telemetry", async () => {
    const metas: unknown[] = [];
    const server = new ServerV1({ name: "raw", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      metas.push(req.params._meta);
      return { content: [{ type: "text", text: "ok" }] };
    });
    const [a, b] = MemoryV1.createLinkedPair();
    await server.connect(b);
    const client = new ClientV1({ name: "c", version: "1.0.0" });
    await client.connect(a);
    closers.push(() => client.close());
    const tools = await mcpTools(client);
    const otel = otelHarness();
    const tele = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    await tele.runToolCalls([{ id: "c1", name: "echo", arguments: {} }], tools);
    expect(JSON.stringify(metas[0] ?? {})).not.toContain("traceparent");
  });

  it("is a TypeError naming it when it is not a telemetry", async () => {
    const client = new ClientV1({ name: "c", version: "1.0.0" });
    await expect(mcpTools(client, { telemetry: {} as never })).rejects.toThrow(
      new TypeError("Expected `telemetry` to be toolrx/otel's telemetry() (with traceContext), got an object"),
    );
  });
});

describe("serveTools with telemetry", () => {
  /** A 1.x client's call whose _meta OpenTelemetry's own propagator wrote, from `carrier`. */
  async function callWith(carrier: Record<string, string>) {
    const otel = otelHarness();
    const tele = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    const client = (await served("v1", [weather], { telemetry: tele })) as ClientV1;
    await client.callTool({ name: "weather", arguments: { city: "Oslo" }, _meta: carrier });
    return otel.span("execute_tool weather");
  }

  it("continues a trace context another client's OpenTelemetry injected", async () => {
    const otel = otelHarness();
    const span = otel.tracerProvider.getTracer("other-client").startSpan("client call");
    const carrier: Record<string, string> = {};
    w3c.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
    span.end();
    const servedSpan = await callWith(carrier);
    expect(servedSpan.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(servedSpan.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
  });

  it.each([
    ["a version ff", "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"],
    ["an all-zero trace id", "00-00000000000000000000000000000000-b7ad6b7169203331-01"],
    ["a version 00 with a fifth field", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra"],
    ["upper-case hex", "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01"],
  ])("ignores %s, as W3C says: the served span starts a trace of its own", async (_what, traceparent) => {
    const servedSpan = await callWith({ traceparent });
    expect(servedSpan.parentSpanContext).toBeUndefined();
    expect(servedSpan.spanContext().traceId).not.toBe("0af7651916cd43dd8448eb211c80319c");
  });

  it("continues the trace over Streamable HTTP too", async () => {
    const otel = otelHarness();
    const tele = telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    const http = await startSessionHttpServer([weather], { telemetry: tele });
    closers.push(() => http.close());
    const client = new ClientV1({ name: "c", version: "1.0.0" });
    await client.connect(new HttpV1(new URL(http.url)));
    closers.unshift(() => client.close());
    const tools = await mcpTools({ remote: client }, { telemetry: tele });
    await underAgent(otel.tracerProvider.getTracer("test"), () =>
      tele.runToolCalls([{ id: "c1", name: "remote__weather", arguments: { city: "Oslo" } }], tools),
    );
    const calling = otel.span("execute_tool remote__weather");
    const servedSpan = otel.span("execute_tool weather");
    expect(servedSpan.spanContext().traceId).toBe(calling.spanContext().traceId);
    expect(servedSpan.parentSpanContext?.spanId).toBe(calling.spanContext().spanId);
  });

  it("is a TypeError naming it when it has no traced runner", () => {
    const server = new ServerV1({ name: "s", version: "1" });
    expect(() =>
      serveTools(server, [weather], { telemetry: { traceContext: { inject: () => undefined, continue: (_c: unknown, f: () => unknown) => f() } } as never }),
    ).toThrow(new TypeError("Expected `telemetry` to be toolrx/otel's telemetry() (with traceContext and streamToolCalls), got an object"));
  });
});
