import { afterEach, describe, expect, it, vi } from "vitest";
import { lastValueFrom, tap, toArray } from "rxjs";
import { runToolCalls, streamToolCalls, ToolError, type ToolCall } from "../../../src/index.js";
import { mcpTools, type McpClientLike } from "../../../src/mcp/index.js";
import { connect, LINES, sleep, text, type Connected, type TestTool } from "../support/servers";
import { must } from "../../support/must.js";

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});
async function serve(line: (typeof LINES)[number], tools: TestTool[]): Promise<Connected> {
  const c = await connect(line, { tools });
  open.push(c);
  return c;
}
const call = (name: string, args: Record<string, unknown> = {}, id = `c-${name}`): ToolCall => ({ id, name, arguments: args });

describe.each(LINES)("an MCP tool's call (SDK %s)", (line) => {
  it("answers with the text of the result's content", async () => {
    const { client } = await serve(line, [
      {
        name: "add",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        handler: ({ a, b }) => text(String(Number(a) + Number(b))),
      },
    ]);
    const result = await runToolCalls([call("add", { a: 2, b: 3 })], await mcpTools(client));
    expect(result.messages).toEqual([{ role: "tool", toolCallId: "c-add", name: "add", content: "5", isError: false }]);
  });

  it("validates arguments against the server's inputSchema before calling the server", async () => {
    const handler = vi.fn(() => text("ran"));
    const { client } = await serve(line, [{ name: "find", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, handler }]);
    const result = await runToolCalls([call("find", { q: 1 })], await mcpTools(client));
    expect(must(result.messages[0]).isError).toBe(true);
    expect(must(result.messages[0]).content).toContain("q");
    expect(handler).not.toHaveBeenCalled();
  });

  describe("when the result has isError: true", () => {
    it("is an error through onToolError, not a success", async () => {
      const { client } = await serve(line, [{ name: "fail", handler: () => ({ content: [{ type: "text", text: "no such city" }], isError: true }) }]);
      const onToolError = vi.fn(() => "halt" as const);
      const result = await runToolCalls([call("fail")], await mcpTools(client), { onToolError });
      expect(onToolError).toHaveBeenCalledWith(call("fail"), "no such city");
      expect(result.messages[0]).toMatchObject({ content: '{"error":"no such city"}', isError: true });
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c-fail" });
    });
  });

  describe("when the server answers with a protocol error", () => {
    it("is handler_raised, carrying the server's error", async () => {
      const { client } = await serve(line, [
        {
          name: "boom",
          handler: () => {
            throw new Error("database is down");
          },
        },
      ]);
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => ({ continue: "fallback" }));
      await runToolCalls([call("boom")], await mcpTools(client), { onToolError });
      const reason = must(onToolError.mock.calls[0])[1] as ToolError;
      expect(reason).toBeInstanceOf(ToolError);
      expect(reason.reason).toBe("handler_raised");
      expect(String((reason.cause as Error).message)).toContain("database is down");
    });
  });

  describe("signals and deadlines", () => {
    it("a deadline aborts the server's handler (notifications/cancelled) and answers `timeout`, not an SDK error", async () => {
      const { client, cancelled } = await serve(line, [
        {
          name: "slow",
          handler: async (_a, ctx) => {
            await sleep(10_000, ctx.signal);
            return text("late");
          },
        },
        { name: "fast", handler: () => text("fast") },
      ]);
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      const result = await runToolCalls([call("slow"), call("fast")], await mcpTools(client), { toolTimeout: 150, onToolError });
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("timeout");
      expect(result.messages[1]).toMatchObject({ content: "fast", isError: false });
      await vi.waitFor(() => expect(cancelled).toEqual(["slow"]));
    });

    it("a server that ignores the cancel cannot hold the call past the deadline", async () => {
      const { client } = await serve(line, [{ name: "stubborn", handler: () => sleep(1_500).then(() => text("done")) }]);
      const started = Date.now();
      const result = await runToolCalls([call("stubborn")], await mcpTools(client), { toolTimeout: 100 });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(must(result.messages[0]).content).toContain("timeout");
    });

    it("aborting opts.signal cancels the server's handler and rejects with the signal's reason at once", async () => {
      const { client, cancelled } = await serve(line, [{ name: "slow", handler: () => sleep(1_500).then(() => text("late")) }]);
      const tools = await mcpTools(client);
      const controller = new AbortController();
      const run = runToolCalls([call("slow")], tools, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("user left")), 50);
      const started = Date.now();
      await expect(run).rejects.toThrow("user left");
      expect(Date.now() - started).toBeLessThan(1_000);
      await vi.waitFor(() => expect(cancelled).toEqual(["slow"]));
    });

    it("sets the SDK's own 60 s request timeout out of the way and always asks for progress", async () => {
      const { client } = await serve(line, [{ name: "t", handler: (_a, ctx) => text(String(ctx.progressToken !== undefined)) }]);
      const seen: Record<string, unknown>[] = [];
      const spy: McpClientLike = {
        listTools: (...a) => client.listTools(...(a as [])),
        callTool: ((params: never, ...rest: unknown[]) => {
          seen.push((line === "v1" ? rest[1] : rest[0]) as Record<string, unknown>);
          return (client.callTool as (...x: unknown[]) => Promise<unknown>).call(client, params, ...rest);
        }) as never,
      };
      if (line === "v2") Object.assign(spy, { getProtocolEra: () => "legacy" });
      const result = await runToolCalls([call("t")], await mcpTools(spy));
      expect(must(result.messages[0]).content).toBe("true");
      expect(seen[0]).toMatchObject({ timeout: 2_147_483_647, onprogress: expect.any(Function), signal: expect.any(AbortSignal) });
    });
  });

  describe("progress notifications", () => {
    it("reach the side channel (onCallReport) as progress reports, before the call completes", async () => {
      const { client } = await serve(line, [
        {
          name: "work",
          handler: async (_a, ctx) => {
            await ctx.progress(1, 3, "one");
            await sleep(20);
            await ctx.progress(2, 3);
            await sleep(20);
            return text("done");
          },
        },
      ]);
      const seen: string[] = [];
      const tools = await mcpTools(client);
      await lastValueFrom(
        streamToolCalls([call("work")], tools, {
          onCallReport: (r) => {
            if (r.type === "progress") seen.push(`progress ${r.progress}/${r.total ?? "?"}${r.message ? ` ${r.message}` : ""}`);
          },
        }).pipe(
          tap((e) => seen.push(e.type)),
          toArray(),
        ),
      );
      expect(seen).toEqual(["tool_execution_started", "progress 1/3 one", "progress 2/3", "tool_execution_completed", "tool_result_encoded"]);
    });

    it("restart toolrx's idle deadline: a server that keeps reporting outlives toolIdleTimeout, a silent one does not", async () => {
      const { client } = await serve(line, [
        {
          name: "chatty",
          handler: async (_a, ctx) => {
            for (let i = 1; i <= 8; i++) {
              await sleep(50);
              await ctx.progress(i, 8);
            }
            return text("done");
          },
        },
        { name: "silent", handler: (_a, ctx) => sleep(400, ctx.signal).then(() => text("done")) },
      ]);
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      const result = await runToolCalls([call("chatty"), call("silent")], await mcpTools(client), { toolIdleTimeout: 200, onToolError });
      expect(result.messages[0]).toMatchObject({ content: "done", isError: false });
      expect(onToolError).toHaveBeenCalledTimes(1);
      expect(must(onToolError.mock.calls[0])[0].name).toBe("silent");
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("timeout");
    });
  });

  describe("idempotentHint", () => {
    it("lets RunOptions.retry retry a failed call of an idempotent tool, and only of one", async () => {
      const runs = { safe: 0, unsafe: 0 };
      const flaky = (key: "safe" | "unsafe") => () => {
        runs[key]++;
        if (runs[key] === 1) throw new Error("upstream hiccup");
        return text(`${key} ok`);
      };
      const { client } = await serve(line, [
        { name: "safe", annotations: { idempotentHint: true }, handler: flaky("safe") },
        { name: "unsafe", handler: flaky("unsafe") },
      ]);
      const tools = await mcpTools(client);
      // A tool the server does not call idempotent has no control at all: `idempotent: false` is the default.
      expect(tools.map((t) => t.control)).toEqual([{ idempotent: true }, undefined]);
      const result = await runToolCalls([call("safe"), call("unsafe")], tools, { retry: { attempts: 3, delay: 0 } });
      expect(result.messages.map((m) => [m.content.startsWith("{") ? "error" : m.content, m.isError])).toEqual([
        ["safe ok", false],
        ["error", true],
      ]);
      expect(runs).toEqual({ safe: 2, unsafe: 1 });
    });
  });

  describe("content blocks and structured content", () => {
    it("map to text in a documented way", async () => {
      const { client } = await serve(line, [
        {
          name: "mixed",
          handler: () => ({
            content: [
              { type: "text", text: "Found 2 files" },
              { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
              { type: "audio", data: "AAAA", mimeType: "audio/wav" },
              { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: "first file" },
              { type: "resource", resource: { uri: "file:///b.txt", text: "contents of b", mimeType: "text/plain" } },
              { type: "resource", resource: { uri: "file:///c.bin", blob: "AAAAAA==", mimeType: "application/octet-stream" } },
            ],
          }),
        },
        {
          name: "structured",
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          handler: () => ({ content: [], structuredContent: { n: 7 } }),
        },
      ]);
      const result = await runToolCalls([call("mixed"), call("structured")], await mcpTools(client));
      expect(must(result.messages[0]).content).toBe(
        [
          "Found 2 files",
          "[image: image/png, 5 B]",
          "[audio: audio/wav, 3 B]",
          "[resource link: a.txt file:///a.txt]\nfirst file",
          "[resource: file:///b.txt]\ncontents of b",
          "[resource: file:///c.bin, application/octet-stream, 4 B]",
        ].join("\n\n"),
      );
      expect(result.messages[1]).toMatchObject({ content: '{"n":7}', isError: false });
    });

    it("structuredContent that breaks the tool's outputSchema is an error", async () => {
      const { client } = await serve(line, [
        {
          name: "liar",
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          handler: () => ({ content: [{ type: "text", text: "{}" }], structuredContent: { n: "seven" } }),
        },
      ]);
      const result = await runToolCalls([call("liar")], await mcpTools(client));
      expect(must(result.messages[0]).isError).toBe(true);
      expect(must(result.messages[0]).content).toMatch(/output ?schema/i);
    });
  });

  describe("maxResultChars", () => {
    it("cuts a huge result and says so, for success and error alike", async () => {
      const { client } = await serve(line, [
        { name: "big", handler: () => text("x".repeat(100_000)) },
        { name: "bigerr", handler: () => ({ content: [{ type: "text", text: "e".repeat(50_000) }], isError: true }) },
      ]);
      const result = await runToolCalls([call("big"), call("bigerr")], await mcpTools(client, { maxResultChars: 1_000 }));
      expect(must(result.messages[0]).content).toBe(`${"x".repeat(1_000)}\n[truncated: 1000 of 100000 characters shown]`);
      expect(must(result.messages[1]).content.length).toBeLessThan(1_200);
      expect(must(result.messages[1]).isError).toBe(true);
    });
  });

  describe("bad input", () => {
    it("a result that is not a CallToolResult is an error for that call alone", async () => {
      const { client } = await serve(line, [
        { name: "weird", handler: () => ({ content: "not an array" }) },
        { name: "fine", handler: () => text("fine") },
      ]);
      const result = await runToolCalls([call("weird"), call("fine")], await mcpTools(client));
      expect(must(result.messages[0]).isError).toBe(true);
      expect(result.messages[1]).toMatchObject({ content: "fine", isError: false });
    });

    it("a server that dies mid-call: handler_exit, within the deadline, other servers unaffected", async () => {
      const dying = await serve(line, [{ name: "work", handler: () => sleep(5_000).then(() => text("never")) }]);
      const healthy = await serve(line, [{ name: "work", handler: () => sleep(200).then(() => text("ok")) }]);
      const tools = await mcpTools({ dying: dying.client, healthy: healthy.client });
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      setTimeout(() => void dying.closeServer(), 50);
      const result = await runToolCalls([call("dying__work"), call("healthy__work")], tools, { onToolError, toolTimeout: 3_000 });
      const reason = must(onToolError.mock.calls[0])[1] as ToolError;
      expect(reason.reason).toBe("handler_exit");
      expect(reason.message).toContain('MCP server "dying" went away during tool work');
      expect(result.messages[1]).toMatchObject({ content: "ok", isError: false });
    });

    it("a client that was closed before the call: handler_exit", async () => {
      const c = await serve(line, [{ name: "work", handler: () => text("ok") }]);
      const tools = await mcpTools(c.client);
      await c.client.close();
      const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      await runToolCalls([call("work")], tools, { onToolError });
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("handler_exit");
    });
  });
});

describe("a client that answers something that is not a CallToolResult", () => {
  it("is invalid_return", async () => {
    const client: McpClientLike = {
      listTools: async () => ({ tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      callTool: async () => "nope",
    };
    const onToolError = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
    await runToolCalls([call("t")], await mcpTools(client), { onToolError });
    expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("invalid_return");
  });
});
