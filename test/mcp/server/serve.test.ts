import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { Server as ServerV2 } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runToolCalls, toolJsonSchema, toolResolver, type Tool, type ToolResolver } from "../../../src/index.js";
import { mcpTools, serveTools, type ServeToolsOptions } from "../../../src/mcp/index.js";
import { LINES, servedThroughToolrx, sleep, type SdkLine } from "../support/servers";

type AnyClient = ClientV1 | ClientV2;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

/** A server of `line` serving `tools` through toolrx, and a client of the same line. */
function served(line: SdkLine, tools: readonly Tool[] | ToolResolver, options?: ServeToolsOptions): Promise<AnyClient> {
  return servedThroughToolrx(line, tools, closers, options);
}

function callTool(client: AnyClient, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
  return client instanceof ClientV1
    ? (client.callTool({ name, arguments: args }, undefined, { signal }) as Promise<Record<string, unknown>>)
    : (client.callTool({ name, arguments: args }, { signal }) as Promise<Record<string, unknown>>);
}

const weather = defineTool({
  name: "weather",
  description: "Weather by city",
  schema: z.object({ city: z.string(), unit: z.enum(["C", "F"]).default("C") }),
  handler: ({ city, unit }) => ok({ city, temp: 21, unit }),
});

describe.each(LINES)("serveTools (SDK %s)", (line) => {
  it("lists the tools with their JSON Schemas", async () => {
    const client = await served(line, [weather]);
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "weather",
        description: "Weather by city",
        inputSchema: toolJsonSchema(weather),
      },
    ]);
  });

  it("runs a call through toolrx: validated, defaults applied, value as text and structuredContent", async () => {
    const client = await served(line, [weather]);
    expect(await callTool(client, "weather", { city: "Oslo" })).toEqual({
      content: [{ type: "text", text: '{"city":"Oslo","temp":21,"unit":"C"}' }],
      structuredContent: { city: "Oslo", temp: 21, unit: "C" },
      isError: false,
    });
    const bad = await callTool(client, "weather", { city: 7 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("city");
  });

  it("answers an unknown tool with isError, naming the tools that exist", async () => {
    const client = await served(line, [weather]);
    const result = await callTool(client, "nope", {});
    expect(result).toEqual({ content: [{ type: "text", text: "Unknown tool: nope. Tools: weather" }], isError: true });
  });

  it("enforces toolrx's deadline and onToolError policy on the server side", async () => {
    let aborted: unknown;
    const hung = defineTool({
      name: "hung",
      description: "",
      schema: z.object({}),
      handler: (_a, ctx) => new Promise(() => ctx.signal.addEventListener("abort", () => (aborted = ctx.signal.reason))),
    });
    const failing = defineTool({ name: "failing", description: "", schema: z.object({}), handler: () => error("broken") });
    const onToolError = vi.fn(() => ({ continue: "recovered" }));
    const client = await served(line, [hung, failing], { toolTimeout: 100, onToolError });
    const timedOut = await callTool(client, "hung", {});
    expect(timedOut.isError).toBe(false); // the policy answered { continue }
    expect(timedOut.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(aborted).toMatchObject({ name: "ToolError", reason: "timeout" });
    expect(await callTool(client, "failing", {})).toMatchObject({ content: [{ type: "text", text: "recovered" }], isError: false });
    expect(onToolError).toHaveBeenCalledTimes(2);
  });

  it("bounds calls across all requests by maxConcurrency", async () => {
    let running = 0;
    let peak = 0;
    const slow = defineTool({
      name: "slow",
      description: "",
      schema: z.object({}),
      handler: async () => {
        peak = Math.max(peak, ++running);
        await sleep(30);
        running--;
        return ok("done");
      },
    });
    const client = await served(line, [slow], { maxConcurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => callTool(client, "slow", {})));
    expect(results.every((r) => r.isError === false)).toBe(true);
    expect(peak).toBe(2);
  });

  it("a client's cancel aborts the handler's ctx.signal", async () => {
    const seen = deferred<unknown>();
    const started = deferred<void>();
    const waits = defineTool({
      name: "waits",
      description: "",
      schema: z.object({}),
      handler: (_a, ctx) => {
        started.resolve();
        ctx.signal.addEventListener("abort", () => seen.resolve(ctx.signal.reason));
        return new Promise(() => {});
      },
    });
    const client = await served(line, [waits]);
    const controller = new AbortController();
    const pending = callTool(client, "waits", {}, controller.signal);
    await started.promise;
    controller.abort(new Error("user cancelled"));
    await expect(pending).rejects.toBeDefined();
    await expect(seen.promise).resolves.toBeDefined();
  });

  it("sends a handler's ctx.progress to the client as progress notifications", async () => {
    const steps = defineTool({
      name: "steps",
      description: "",
      schema: z.object({}),
      handler: async (_a, ctx) => {
        for (let i = 1; i <= 3; i++) {
          ctx.progress({ progress: i, total: 3, message: `step ${i}` });
          await sleep(20);
        }
        return ok("done");
      },
    });
    const reports: unknown[] = [];
    const client = await served(line, [steps], { onCallReport: (r) => void reports.push(r.type) });
    const onprogress = (p: unknown) => void seen.push(p);
    const seen: unknown[] = [];
    const result =
      client instanceof ClientV1
        ? await client.callTool({ name: "steps", arguments: {} }, undefined, { onprogress })
        : await client.callTool({ name: "steps", arguments: {} }, { onprogress });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
    expect(reports).toEqual(["progress", "progress", "progress"]); // the server's own onCallReport still sees them
  });

  it('sends an error\'s text without the {"error"} wrapper, so a toolrx client wraps it once', async () => {
    const failing = defineTool({ name: "failing", description: "", schema: z.object({}), handler: () => error("no forecast for Atlantis") });
    const client = await served(line, [failing]);
    expect(await callTool(client, "failing", {})).toEqual({ content: [{ type: "text", text: "no forecast for Atlantis" }], isError: true });
    const result = await runToolCalls([{ id: "1", name: "failing", arguments: {} }], await mcpTools(client));
    expect(result.messages[0]).toMatchObject({ content: '{"error":"no forecast for Atlantis"}', isError: true });
  });

  it("serves tools that mcpTools reads back: both directions compose", async () => {
    const client = await served(line, [weather]);
    const tools = await mcpTools({ remote: client });
    const result = await runToolCalls([{ id: "1", name: "remote__weather", arguments: { city: "Rome" } }], tools);
    expect(result.messages[0]).toMatchObject({ content: '{"city":"Rome","temp":21,"unit":"C"}', isError: false });
  });

  it("throws TypeErrors for bad options before registering anything", () => {
    const server = line === "v1" ? new ServerV1({ name: "s", version: "1" }) : new ServerV2({ name: "s", version: "1" });
    expect(() => serveTools(server, [weather], { maxConcurrency: 0 })).toThrow("Expected `maxConcurrency` to be a positive integer, got 0");
    expect(() => serveTools(server, [weather], { toolTimeout: -5 })).toThrow(/`toolTimeout`/);
    expect(() => serveTools(server, "tools" as never)).toThrow(/`tools`/);
    expect(() => serveTools({} as never, [weather])).toThrow(/`server`/);
  });
});

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("serveTools with a resolver", () => {
  it("lists the resolver's tools and answers through resolve", async () => {
    const resolver = toolResolver([weather]);
    const client = await served("v1", resolver);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["weather"]);
    expect(await callTool(client, "weather", { city: "Bergen" })).toMatchObject({
      content: [{ type: "text", text: '{"city":"Bergen","temp":21,"unit":"C"}' }],
      isError: false,
    });
  });
});
