import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runAgent, runToolCalls, streamToolCalls, type HandlerResult, type ToolEvent } from "../../../src/index.js";
import { call, deferred } from "../../support/helpers.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";
import { seen, sql, sqlDefinition } from "./call-hooks-fixtures.js";

describe("call hooks", () => {
  describe("when a hook fails", () => {
    it("a throw is that call's handler_raised, the rest of the batch runs", async () => {
      const { messages } = await runToolCalls([call("c1", "sql", { query: "bad" }), call("c2", "sql", { query: "good" })], [sql], {
        hooks: [
          {
            before: (a) => {
              if (a.query === "bad") throw new Error("guard broke");
            },
          },
        ],
      });
      expect(messages.map((m) => m.isError)).toEqual([true, false]);
      expect(messages[0]?.content).toContain("guard broke");
    });

    it("an answer that is not one is an invalid_return with metadata.hook", async () => {
      const errors: unknown[] = [];
      await runToolCalls([call("c1", "sql", { query: "x" })], [sql], {
        hooks: [{ after: () => "oops" as never }],
        onToolError: (_c, e) => {
          errors.push(e);
          return { continue: "x" };
        },
      });
      expect(errors).toEqual([expect.objectContaining({ reason: "invalid_return", metadata: { hook: "after", hookIndex: 0 } })]);
    });

    it("refuses a malformed hook where it is given", () => {
      expect(() => streamToolCalls([], [sql], { hooks: [{ befor: () => undefined } as never] })).toThrow("Unknown key `befor` in `hooks[0]`");
      expect(() => defineTool({ ...sqlDefinition(), hooks: [{ after: 1 as never }] })).toThrow(TypeError);
    });
  });

  describe("under the call's deadline and signal (virtual time)", () => {
    it("an async before hook past toolTimeout answers timeout and its signal is aborted", async () => {
      const scheduler = manualScheduler();
      const signals: AbortSignal[] = [];
      const events: ToolEvent[] = [];
      seen.length = 0;
      streamToolCalls([call("c1", "sql", { query: "x" })], [sql], {
        scheduler,
        toolTimeout: 100,
        hooks: [
          {
            before: (_a, ctx) => {
              signals.push(ctx.signal);
              return new Promise(() => {});
            },
          },
        ],
      }).subscribe((e) => events.push(e));
      await scheduler.advance(99);
      expect(events.map((e) => e.type)).toEqual(["tool_execution_started"]);
      await scheduler.advance(1);
      expect(events[1]).toMatchObject({ type: "tool_execution_completed", result: error(expect.objectContaining({ reason: "timeout" })) });
      expect(signals[0]?.aborted).toBe(true);
      expect(seen).not.toContain("x/10");
    });

    it("the deadline counts hooks and handler together", async () => {
      const scheduler = manualScheduler();
      const gate = deferred<void>();
      const slow = defineTool({ name: "slow", description: "", schema: z.object({}), handler: () => new Promise<HandlerResult>(() => {}) });
      const events: ToolEvent[] = [];
      streamToolCalls([call("c1", "slow")], [slow], {
        scheduler,
        toolTimeout: 100,
        hooks: [{ before: () => gate.promise.then(() => undefined) }],
      }).subscribe((e) => events.push(e));
      await scheduler.advance(60);
      gate.resolve();
      await scheduler.advance(39);
      expect(events).toHaveLength(1);
      await scheduler.advance(1);
      expect(events[1]).toMatchObject({ result: error(expect.objectContaining({ reason: "timeout" })) });
    });

    it("unsubscribing aborts a hook's signal", async () => {
      const signals: AbortSignal[] = [];
      const subscription = streamToolCalls([call("c1", "sql", { query: "x" })], [sql], {
        hooks: [
          {
            after: (_r, _a, ctx) => {
              signals.push(ctx.signal);
              return new Promise(() => {});
            },
          },
        ],
      }).subscribe();
      await Promise.resolve();
      expect(signals[0]?.aborted).toBe(false);
      subscription.unsubscribe();
      expect(signals[0]?.aborted).toBe(true);
    });
  });

  describe("in the agent loop", () => {
    it("the run's hooks apply to every turn's calls", async () => {
      let turn = 0;
      const result = await runAgent({
        model: () => (turn++ === 0 ? [toolCall("c1", "sql", { query: "q" }), finish("tool_calls")] : [finish("stop")]),
        tools: [sql],
        messages: [user("go")],
        hooks: [{ before: () => ok("from the guard") }],
      });
      expect(result.messages[2]).toMatchObject({ role: "tool", content: "from the guard" });
    });
  });
});
