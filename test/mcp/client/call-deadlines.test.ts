import { describe, expect, it, vi } from "vitest";
import { lastValueFrom, tap, toArray } from "rxjs";
import { runToolCalls, streamToolCalls, type ToolError, type ToolCall } from "../../../src/index.js";
import { mcpTools, type McpClientLike } from "../../../src/mcp/index.js";
import { LINES, sleep, text } from "../support/servers";
import { must } from "../../support/must.js";
import { call, servedPerTest } from "./call-fixture.js";

// An MCP tool's call in time: deadlines and signals reach the server, progress resets the idle deadline, idempotent tools retry.

const serve = servedPerTest();

describe.each(LINES)("an MCP tool's call (SDK %s)", (line) => {
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
});
