import { describe, expect, it } from "vitest";
import { firstValueFrom, toArray } from "rxjs";
import {
  defineTool,
  RunResultCollector,
  streamToolCalls,
  type CallReport,
  type HandlerResult,
  type RunOptions,
  type Tool,
  type ToolCall,
  type ToolEvent,
} from "../../src/index.js";
import * as handlers from "./fixtures/handlers.mjs";
import { anyArgs, call, fixtureTool, testPool } from "./pool-helpers.js";

/** The fixture's handler `name` as an in-process tool: the same code the pool's thread runs. */
function inProcess(name: string): Tool {
  const handler = (handlers as unknown as Record<string, () => HandlerResult>)[name];
  return defineTool({ name, description: "", schema: anyArgs, handler: handler as () => HandlerResult });
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

  describe("when a handler returns an error", () => {
    it("gives the same message and the same error: class, message, data and cause chain", async () => {
      const { local, isolated } = await bothWays([call("a", "failing")]);
      expect(isolated.messages).toEqual(local.messages);
      const reason = (result: HandlerResult | undefined) => anatomy((result as { reason: unknown }).reason);
      expect(reason(isolated.results[0])).toEqual(reason(local.results[0]));
      expect(reason(local.results[0])).toMatchObject({ name: "RangeError", data: { limit: 7 }, cause: { name: "TypeError", cause: "row 7" } });
    });
  });
});
