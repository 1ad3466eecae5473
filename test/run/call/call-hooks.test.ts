import { describe, expect, it } from "vitest";
import { z } from "zod";
import { askUser, defineTool, error, halt, ok, runToolCalls, streamToolCalls, type CallHook, type HandlerResult, type ToolEvent } from "../../../src/index.js";
import { call } from "../../support/helpers.js";
import { messagesOf, seen, sql, sqlDefinition } from "./call-hooks-fixtures.js";

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
});
