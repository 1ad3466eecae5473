import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { config, firstValueFrom, toArray } from "rxjs";
import {
  defineTool,
  runToolCalls,
  RunResultCollector,
  streamToolCalls,
  type CallReport,
  type HandlerResult,
  type RunOptions,
  type Tool,
  type ToolCall,
  type ToolEvent,
  ToolError,
} from "../../src/index.js";
import { anyArgs, call, fixture, fixtureTool, testPool, until } from "./pool-helpers.js";

/** The module the pool's threads load, loaded here too: the same handlers on both sides. */
const handlers = (await import(fixture.href)) as Record<string, () => HandlerResult>;

/** The fixture's handler `name` as an in-process tool: the same code the pool's thread runs. */
function inProcess(name: string): Tool {
  return defineTool({ name, description: "", schema: anyArgs, handler: handlers[name] as () => HandlerResult });
}

/** One batch in-process and through a pool: messages, the completed results and the reports. */
async function bothWays(calls: ToolCall[], options: RunOptions = {}) {
  const names = [...new Set(calls.map((c) => c.name))];
  const run = async (tools: Tool[], extra: RunOptions) => {
    const reports: CallReport[] = [];
    const events: ToolEvent[] = await firstValueFrom(
      streamToolCalls(calls, tools, { ...options, ...extra, onCallReport: (r) => reports.push(r) }).pipe(toArray()),
    );
    const collector = new RunResultCollector();
    for (const e of events) collector.add(e);
    const results = events.flatMap((e) => (e.type === "tool_execution_completed" ? [e.result] : []));
    return { messages: collector.result().messages, results, reports };
  };
  const pool = testPool();
  return {
    local: await run(names.map(inProcess), {}),
    isolated: await run(
      names.map((n) => fixtureTool(pool, n)),
      { toolExecutor: pool },
    ),
  };
}

/** An error as data: its class name, message, own data and cause chain, for comparing two sides. */
function anatomy(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const data = Object.fromEntries(Object.entries(value));
  return { name: value.name, message: value.message, data, cause: anatomy(value.cause) };
}

describe("workerPool and the in-process executor", () => {
  describe("when a handler returns content parts", () => {
    it("gives the same tool message, parts included", async () => {
      const { local, isolated } = await bothWays([call("a", "chart"), call("b", "badParts")]);
      expect(local.messages[0]?.parts).toEqual([{ type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }]);
      expect(local.messages[1]?.content).toContain("invalid_return");
      expect(isolated.messages).toEqual(local.messages);
    });
  });

  describe("when a handler reads ctx.toolCall", () => {
    // The pool sends a tool call of `id`, `name` and `arguments` alone as three values and the
    // thread builds it again; any other tool call crosses as it is. Both give the handler the same
    // object, keys in the same order, as in-process.
    it("gives it the same tool call, whether it is id, name and arguments alone or carries more", async () => {
      const calls: ToolCall[] = [
        call("plain", "toolCallSeen", { q: "x", n: [1, 2] }),
        {
          id: "more",
          name: "toolCallSeen",
          arguments: { q: "y" },
          rawArguments: '{"q":"y"}',
          metadata: { source: "test" },
          providerState: { provider: "openai", data: { itemId: "fc_1" } },
        },
        { name: "toolCallSeen", id: "reordered", arguments: {} },
        { id: "undefinedKey", name: "toolCallSeen", arguments: {}, metadata: undefined },
      ];
      const { local, isolated } = await bothWays(calls);
      expect(isolated.messages).toEqual(local.messages);
      expect(local.messages.map((m) => JSON.parse(m.content as string).keys)).toEqual([
        ["id", "name", "arguments"],
        ["id", "name", "arguments", "rawArguments", "metadata", "providerState"],
        ["name", "id", "arguments"],
        ["id", "name", "arguments", "metadata"],
      ]);
    });
  });

  describe("when a handler returns an error", () => {
    it("gives the same message and the same error: class, message, data and cause chain", async () => {
      const { local, isolated } = await bothWays([call("a", "failing")]);
      expect(isolated.messages).toEqual(local.messages);
      const reason = (result: HandlerResult | undefined) => anatomy((result as { reason: unknown }).reason);
      expect(reason(isolated.results[0])).toEqual(reason(local.results[0]));
      expect(reason(local.results[0])).toMatchObject({ name: "RangeError", data: { limit: 7 }, cause: { name: "TypeError", cause: "row 7" } });
    });
  });

  describe("when a handler reports malformed progress", () => {
    it("drops it and reports it to config.onUnhandledError as in-process, and the work goes on", async () => {
      const unhandled: string[] = [];
      const before = config.onUnhandledError;
      config.onUnhandledError = (e: unknown) => unhandled.push((e as Error).message);
      try {
        const { local, isolated } = await bothWays([call("a", "badProgress")]);
        await sleep(50); // reportUnhandled delivers on its own task
        expect(isolated.messages).toEqual(local.messages);
        expect(local.messages[0]?.content).toBe("done");
        expect(isolated.reports).toEqual(local.reports);
        expect(local.reports).toMatchObject([{ type: "progress", progress: 1 }]);
        expect(unhandled).toHaveLength(6); // three in-process, then the same three from the thread
        expect(unhandled.slice(3)).toEqual(unhandled.slice(0, 3));
        expect(unhandled[0]).toContain("got null; the report was dropped");
        expect(unhandled[2]).toContain("got a function (named)");
      } finally {
        config.onUnhandledError = before;
      }
    });
  });
});

describe("workerPool", () => {
  describe("when a call's deadline passes while its thread loads the handler's module", () => {
    it("never starts the handler, and settles the abandoned call at once, saying it did not run", async () => {
      const pool = testPool({ size: 1, spares: 0, grace: 5_000 });
      await pool.warm();
      const slow = new URL("./fixtures/slow-load.mjs", import.meta.url);
      const tool = (name: string) => pool.tool({ name, description: "", schema: anyArgs, module: slow, export: name });
      const reports: CallReport[] = [];
      const started = performance.now();
      const { messages } = await runToolCalls([call("a", "patient")], [tool("patient")], {
        toolExecutor: pool,
        toolTimeout: 100,
        onCallReport: (r) => reports.push(r),
      });
      expect(messages[0]?.content).toContain("timeout: tool patient timed out after 100 ms");
      await until(() => reports.length === 1);
      expect(performance.now() - started).toBeLessThan(4_000); // not killed at the 5 s grace
      expect(reports[0]).toMatchObject({ type: "late_settlement", abandoned: "timeout", settled: true });
      const late = (reports[0] as { result: { reason: ToolError } }).result.reason;
      expect(late).toBeInstanceOf(ToolError);
      expect(late.reason).toBe("timeout");
      expect(late.message).toBe("tool patient timed out after 100 ms while its worker thread loaded the handler's module: the handler did not run");
      expect(late.metadata).toMatchObject({ deadline: "toolTimeout", started: false });
      expect(pool.stats()).toMatchObject({ threads: 1, idle: 1 }); // the same thread, not a replacement
      const runs = await runToolCalls([call("b", "patientRuns")], [tool("patientRuns")], { toolExecutor: pool });
      expect(runs.messages[0]?.content).toBe("0");
    });
  });
});
