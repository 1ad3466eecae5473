import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  askUser,
  defineTool,
  error,
  halt,
  ok,
  runAgent,
  runToolCalls,
  streamToolCalls,
  type CallHook,
  type HandlerResult,
  type Tool,
  type ToolEvent,
} from "../../../src/index.js";
import { call, deferred } from "../../support/helpers.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

const seen: string[] = [];
const sql = defineTool({
  name: "sql",
  description: "",
  schema: z.object({ query: z.string(), limit: z.number().default(10) }),
  handler: ({ query, limit }) => {
    seen.push(`${query}/${limit}`);
    return ok({ rows: [query], limit });
  },
});

const messagesOf = async (hooks: CallHook[], args: Record<string, unknown> = { query: "select" }, tool: Tool = sql as Tool) => {
  seen.length = 0;
  return (await runToolCalls([call("c1", tool.name, args)], [tool], { hooks })).messages;
};

describe("call hooks", () => {
  describe("when a before hook lets the call through", () => {
    it("runs the handler with the validated arguments the hook saw", async () => {
      const args: unknown[] = [];
      const messages = await messagesOf([{ before: (a) => void args.push(a) }]);
      expect(args).toEqual([{ query: "select", limit: 10 }]);
      expect(messages[0]?.content).toBe('{"rows":["select"],"limit":10}');
    });
  });

  describe("when a before hook rewrites the arguments", () => {
    it("validates them again and runs the handler with the schema's output", async () => {
      const messages = await messagesOf([{ before: () => ({ arguments: { query: "select 1" } }) }]);
      expect(seen).toEqual(["select 1/10"]);
      expect(messages[0]).toMatchObject({ isError: false });
    });

    it("answers invalid rewritten arguments without running the handler", async () => {
      const messages = await messagesOf([{ before: () => ({ arguments: { query: 42 } }) }]);
      expect(seen).toEqual([]);
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("query") });
    });
  });

  describe("when a before hook answers the call", () => {
    it("skips the handler and the model reads the hook's value", async () => {
      const messages = await messagesOf([{ before: () => ok("cached") }]);
      expect(seen).toEqual([]);
      expect(messages[0]).toMatchObject({ content: "cached", isError: false });
    });

    it("refuses it through onToolError", async () => {
      const decisions: unknown[] = [];
      seen.length = 0;
      const result = await runToolCalls([call("c1", "sql", { query: "drop" })], [sql], {
        hooks: [{ before: (a) => (String(a.query).includes("drop") ? error("not allowed") : undefined) }],
        onToolError: (_call, e) => {
          decisions.push(e);
          return "halt";
        },
      });
      expect(seen).toEqual([]);
      expect(decisions).toEqual(["not allowed"]);
      expect(result.halt).toMatchObject({ haltedReason: "tool_error", haltToolCallId: "c1" });
    });

    it("can ask the user or halt, as a handler can", async () => {
      const asked = await runToolCalls([call("c1", "sql", { query: "x" })], [sql], { hooks: [{ before: () => askUser("sure?") }] });
      expect(asked.halt).toMatchObject({ haltedReason: "ask_user", pendingQuestion: "sure?" });
      const halted = await runToolCalls([call("c1", "sql", { query: "x" })], [sql], { hooks: [{ before: () => halt("tripwire", { why: "x" }) }] });
      expect(halted.halt).toMatchObject({ haltedReason: "tripwire", haltResult: { why: "x" } });
    });
  });

  describe("when an after hook replaces the result", () => {
    it("the model reads the replacement and the completed event carries it", async () => {
      const events: ToolEvent[] = [];
      await new Promise<void>((done) =>
        streamToolCalls([call("c1", "sql", { query: "select" })], [sql], {
          hooks: [{ after: (r) => (r.type === "ok" ? ok("[redacted]") : undefined) }],
        }).subscribe({
          next: (e) => events.push(e),
          complete: done,
        }),
      );
      expect(events.map((e) => (e.type === "tool_execution_completed" ? e.result : e.type === "tool_result_encoded" ? e.content : e.type))).toEqual([
        "tool_execution_started",
        ok("[redacted]"),
        "[redacted]",
      ]);
    });

    it("sees a handler's failure and may turn it into a success", async () => {
      const failing = defineTool({
        name: "f",
        description: "",
        schema: z.object({}),
        handler: () => {
          throw new Error("boom");
        },
      });
      const results: HandlerResult[] = [];
      const messages = await messagesOf(
        [
          {
            after: (r) => {
              results.push(r);
              return ok("fallback");
            },
          },
        ],
        {},
        failing,
      );
      expect(results).toEqual([error(expect.objectContaining({ reason: "handler_raised" }))]);
      expect(messages[0]).toMatchObject({ content: "fallback", isError: false });
    });
  });

  describe("when several hooks compose", () => {
    it("runs the run's hooks around the tool's: before outside in, after inside out", async () => {
      const order: string[] = [];
      const tagged = (tag: string): CallHook => ({
        before: (a) => {
          order.push(`before ${tag}`);
          return { arguments: { ...a, query: `${String(a.query)}+${tag}` } };
        },
        after: (r) => {
          order.push(`after ${tag}`);
          if (r.type !== "ok") return undefined;
          const v = r.value as string | { rows: string[] };
          return ok(`${typeof v === "string" ? v : v.rows[0]}|${tag}`);
        },
      });
      const inner = defineTool({ ...sqlDefinition(), hooks: [tagged("t1"), tagged("t2")] });
      const { messages } = await runToolCalls([call("c1", "sql", { query: "q" })], [inner], { hooks: [tagged("r1"), tagged("r2")] });
      expect(order).toEqual(["before r1", "before r2", "before t1", "before t2", "after t2", "after t1", "after r2", "after r1"]);
      expect(messages[0]?.content).toBe("q+r1+r2+t1+t2|t2|t1|r2|r1");
    });

    it("a before that answers skips the inner hooks and its own after; the outer afters see its answer", async () => {
      const order: string[] = [];
      const hooks: CallHook[] = [
        { after: (r) => void order.push(`outer after ${JSON.stringify(r)}`) },
        { before: () => ok("short"), after: () => void order.push("own after") },
        { before: () => void order.push("inner before") },
      ];
      await messagesOf(hooks);
      expect(order).toEqual([`outer after ${JSON.stringify(ok("short"))}`]);
      expect(seen).toEqual([]);
    });
  });

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

function sqlDefinition() {
  return {
    name: "sql",
    description: "",
    schema: z.object({ query: z.string(), limit: z.number().default(10) }),
    handler: ({ query }: { query: string; limit: number }) => ok({ rows: [query] }),
  };
}
