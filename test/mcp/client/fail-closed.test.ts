import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runToolCalls, ToolError, type CallReport, type ToolCall } from "../../../src/index.js";
import { type McpToolsError, mcpTools, type McpClientLike } from "../../../src/mcp/index.js";
import { rawServer } from "./raw-server.js";
import { connect, LINES, sleep, text, type Connected, type SdkLine } from "../support/servers";
import { must } from "../../support/must.js";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});
async function server(...args: Parameters<typeof connect>): Promise<Connected> {
  const c = await connect(...args);
  open.push(c);
  return c;
}
async function raw(...args: Parameters<typeof rawServer>): ReturnType<typeof rawServer> {
  const c = await rawServer(...args);
  open.push(c);
  return c;
}
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `c-${name}`, name, arguments: args });
const halting = () => vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
const OBJECT = { type: "object" };
const listOf = (...names: string[]) => ({ result: { tools: names.map((name) => ({ name, inputSchema: OBJECT })) } });

describe.each(LINES)("MCP tools fail closed (SDK %s)", (line: SdkLine) => {
  describe("a server in the same process that hands out a new cursor forever", () => {
    // In a child process: before the fix this listing spun forever, and no timeout can stop a spin.
    const list = (mode: "fast" | "slow") => {
      const fixture = fileURLToPath(new URL("./endless-pages-fixture.ts", import.meta.url));
      const child = spawnSync(process.execPath, ["--import", "tsx", fixture, line, mode], { encoding: "utf8", timeout: 40_000 });
      expect(child.signal, "the listing never ended and was killed").toBeNull();
      return JSON.parse(child.stdout) as { reason?: string; message?: string; pages: number };
    };

    it("is stopped by the page cap, checked on every page", () => {
      const outcome = list("fast");
      // 1.x: toolrx walks the pages and stops at its cap; 2.x walks them itself and stops at its own.
      expect(outcome.reason).toBe(line === "v1" ? "cursor_loop" : "list_failed");
      expect(outcome.pages).toBeLessThanOrEqual(1_000);
    }, 60_000);

    it("answers list_timeout when the deadline passes first, though no timer ever ran", () => {
      const outcome = list("slow");
      if (line === "v1") expect(outcome).toMatchObject({ reason: "list_timeout", message: "MCP server: tools/list did not answer within 100 ms" });
      else expect(["list_timeout", "list_failed"]).toContain(outcome.reason);
    }, 60_000);
  });

  describe("the arguments forwarded to the server", () => {
    it("are the ones the model sent: no default of the schema is filled in", async () => {
      const seen: unknown[] = [];
      const inputSchema = {
        type: "object",
        properties: {
          q: { type: "string" },
          limit: { type: "integer", default: 10 },
          cursor: { type: ["string", "null"], default: null },
          options: { type: "object", properties: { fuzzy: { type: "boolean", default: true } } },
        },
        required: ["q"],
      };
      const { client } = await server(line, {
        tools: [
          {
            name: "search",
            inputSchema,
            handler: (args) => {
              seen.push(args);
              return text("found");
            },
          },
        ],
      });
      const result = await runToolCalls([call("search", { q: "toolrx", options: {} })], await mcpTools(client));
      expect(result.messages[0]).toMatchObject({ content: "found", isError: false });
      expect(seen).toEqual([{ q: "toolrx", options: {} }]);
    });
  });

  describe("an answer the SDK refuses (not a CallToolResult)", () => {
    it("from a server that is not an SDK's: invalid_return with a readable message, not retried", async () => {
      let calls = 0;
      const { client } = await raw(line, (method) => {
        if (method === "tools/list") return { result: { tools: [{ name: "weird", inputSchema: OBJECT, annotations: { idempotentHint: true } }] } };
        calls++;
        return { result: { content: "not an array" } };
      });
      const onToolError = halting();
      await runToolCalls([call("weird")], await mcpTools(client), { onToolError, retry: { attempts: 3, delay: 0 } });
      const reason = must(onToolError.mock.calls[0])[1] as ToolError;
      expect(reason).toBeInstanceOf(ToolError);
      expect(reason.reason).toBe("invalid_return");
      expect(reason.message).toBe(
        "MCP server answered tool weird with something that is not a CallToolResult: content: Invalid input: expected array, received string",
      );
      expect(calls).toBe(1);
    });

    it("from an SDK server whose own handler answered it: invalid_return too", async () => {
      const { client } = await server(line, { tools: [{ name: "weird", handler: () => ({ content: "not an array" }) }] });
      const onToolError = halting();
      await runToolCalls([call("weird")], await mcpTools(client), { onToolError });
      const reason = must(onToolError.mock.calls[0])[1] as ToolError;
      expect(reason.reason).toBe("invalid_return");
      expect(reason.message).toContain("content: Invalid input: expected array, received string");
    });
  });

  describe("a call abandoned at its deadline", () => {
    it("reports what is known, cancel sent and the remote state unknown, not a settlement", async () => {
      const { client, cancelled } = await server(line, { tools: [{ name: "slow", handler: () => sleep(600).then(() => text("late")) }] });
      const reports: CallReport[] = [];
      const result = await runToolCalls([call("slow")], await mcpTools(client), {
        toolTimeout: 100,
        settleGrace: 2_000,
        onCallReport: (r) => void reports.push(r),
      });
      expect(must(result.messages[0]).content).toContain("timeout");
      await vi.waitFor(() => expect(cancelled).toEqual(["slow"]));
      await sleep(800); // the server finished meanwhile; toolrx never saw its answer
      expect(reports).toEqual([
        {
          type: "late_settlement",
          index: 0,
          toolCallId: "c-slow",
          toolName: "slow",
          attempt: 1,
          abandoned: "timeout",
          settled: false,
          grace: expect.any(Number),
          fate: "cancel_sent",
        },
      ]);
    });
  });

  describe("listing several servers when one fails at once", () => {
    it("stops listing the others (their requests are cancelled)", async () => {
      const down = await server(line, { tools: [] });
      await down.close();
      let asked = 0;
      const hangs = await raw(line, () => {
        asked++;
        return new Promise(() => {});
      });
      const started = performance.now();
      const e = await mcpTools({ down: down.client, hangs: hangs.client }, { listTimeout: 20_000 }).catch((x: unknown) => x);
      expect(e).toMatchObject({ reason: "list_failed", server: "down" });
      expect(performance.now() - started).toBeLessThan(5_000);
      // Stopped before its request went out (2.x checks the signal first), or cancelled after.
      await vi.waitFor(() => expect(asked === 0 || hangs.notifications.includes("notifications/cancelled")).toBe(true));
      await sleep(100);
      expect(asked === 0 || hangs.notifications.includes("notifications/cancelled")).toBe(true);
    });
  });

  describe("a tool with an unusable schema", () => {
    it("is left out and reported when `onInvalidTool` is given; the server's other tools are kept", async () => {
      const { client } = await server(line, {
        tools: [
          { name: "good", handler: () => text("good") },
          { name: "bad", inputSchema: { type: "object", properties: { a: { type: 42 } } } },
          { name: "also_bad", inputSchema: { type: "object", properties: { b: { type: "string", pattern: "(" } } } },
        ],
      });
      const reported: McpToolsError[] = [];
      const tools = await mcpTools({ s: client }, { onInvalidTool: (e) => void reported.push(e) });
      expect(tools.map((t) => t.name)).toEqual(["s__good"]);
      expect(reported.map((e) => [e.reason, e.server, e.toolName])).toEqual([
        ["invalid_schema", "s", "bad"],
        ["invalid_schema", "s", "also_bad"],
      ]);
      await expect(mcpTools({ s: client })).rejects.toMatchObject({ reason: "invalid_schema", toolName: "bad" });
      await expect(mcpTools({ s: client }, { onInvalidTool: "skip" as never })).rejects.toThrow(
        new TypeError('Expected `onInvalidTool` to be a function, got "skip"'),
      );
    });
  });

  describe("handler_exit", () => {
    it("is not claimed for a server's own error that mentions a closed connection", async () => {
      const { client } = await raw(line, (method) =>
        method === "tools/list" ? listOf("query") : { error: { code: -32000, message: "Connection closed by the upstream database" } },
      );
      const onToolError = halting();
      await runToolCalls([call("query")], await mcpTools(client), { onToolError });
      expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("handler_raised");
    });
  });
});

describe("handler_exit, whatever the SDK's wording", () => {
  it("is told by the client losing its transport, not by the error's message", async () => {
    // An SDK-shaped client (its connection state in `transport`) whose connection drops mid-call
    // with wording no SDK line uses today.
    const client = {
      transport: {} as object | undefined,
      listTools: async () => ({ tools: [{ name: "work", inputSchema: OBJECT }] }),
      callTool: async () => {
        client.transport = undefined;
        throw Object.assign(new Error("MCP error -32000: peer went away"), { code: -32000 });
      },
    } satisfies McpClientLike & { transport: object | undefined };
    const onToolError = halting();
    await runToolCalls([call("work")], await mcpTools(client), { onToolError });
    expect((must(onToolError.mock.calls[0])[1] as ToolError).reason).toBe("handler_exit");
  });
});

describe("a command-line program listing several servers", () => {
  it("exits once one server failed, not when another's listTimeout runs out", () => {
    const fixture = fileURLToPath(new URL("./list-exit-fixture.ts", import.meta.url));
    const started = performance.now();
    const child = spawnSync(process.execPath, ["--import", "tsx", fixture], { encoding: "utf8", timeout: 45_000 });
    expect(child.stdout.trim()).toBe('MCP server "down": tools/list failed: connection refused');
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
