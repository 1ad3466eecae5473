import { describe, expect, it } from "vitest";
import { defineTool, ok, runToolCalls, streamToolCalls, type HandlerResult, type Tool, type ToolControl, type ToolEvent } from "../../../src/index.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";

/** A tool whose calls wait until the test settles them, by call id. */
function held(name: string, control?: ToolControl) {
  const pending = new Map<string, (r: HandlerResult) => void>();
  const tool = defineTool({
    name,
    description: "",
    schema: anyArgs,
    control,
    handler: (_args, ctx) => {
      const d = deferred<HandlerResult>();
      pending.set(ctx.toolCall.id, d.resolve);
      return d.promise;
    },
  });
  return { tool, pending };
}

function started(events: ToolEvent[]): string[] {
  return events.filter((e) => e.type === "tool_execution_started").map((e) => e.toolCallId);
}

describe("control.concurrency", () => {
  describe("when a tool has its own limit", () => {
    it("runs at most that many of its calls, and other tools' calls go ahead without head-of-line blocking", async () => {
      const db = held("db", { concurrency: 1 });
      const web = held("web");
      const events: ToolEvent[] = [];
      const calls = [call("d1", "db"), call("d2", "db"), call("d3", "db"), call("w1", "web"), call("w2", "web")];
      streamToolCalls(calls, [db.tool, web.tool], { maxConcurrency: 3 }).subscribe((e) => events.push(e));
      // d2 and d3 wait for db's slot without holding one of the three global slots.
      expect(started(events)).toEqual(["d1", "w1", "w2"]);
      db.pending.get("d1")?.(ok(1));
      await flushMicrotasks();
      expect(started(events)).toEqual(["d1", "w1", "w2", "d2"]);
      db.pending.get("d2")?.(ok(2));
      await flushMicrotasks();
      expect(started(events)).toEqual(["d1", "w1", "w2", "d2", "d3"]);
    });

    it("keeps input order among the tool's waiting calls, and gives a freed global slot to the earliest call that can run", async () => {
      const db = held("db", { concurrency: 2 });
      const web = held("web");
      const events: ToolEvent[] = [];
      const calls = ["d1", "d2", "d3", "d4", "w1", "d5", "w2"].map((id) => call(id, id[0] === "d" ? "db" : "web"));
      streamToolCalls(calls, [db.tool, web.tool], { maxConcurrency: 3 }).subscribe((e) => events.push(e));
      expect(started(events)).toEqual(["d1", "d2", "w1"]);
      web.pending.get("w1")?.(ok(1));
      await flushMicrotasks();
      // db is full: w2 goes ahead of d3, d4, d5, which keep their order.
      expect(started(events)).toEqual(["d1", "d2", "w1", "w2"]);
      db.pending.get("d2")?.(ok(1));
      await flushMicrotasks();
      db.pending.get("d1")?.(ok(1));
      await flushMicrotasks();
      expect(started(events)).toEqual(["d1", "d2", "w1", "w2", "d3", "d4"]);
    });
  });

  describe("when tools share a group", () => {
    it("counts every tool of the group against the group's limit", async () => {
      const read = held("read", { concurrency: { group: "db", limit: 2 } });
      const write = held("write", { concurrency: { group: "db", limit: 2 } });
      const events: ToolEvent[] = [];
      streamToolCalls([call("r1", "read"), call("w1", "write"), call("r2", "read"), call("w2", "write")], [read.tool, write.tool], {
        maxConcurrency: 8,
      }).subscribe((e) => events.push(e));
      expect(started(events)).toEqual(["r1", "w1"]);
      write.pending.get("w1")?.(ok(1));
      await flushMicrotasks();
      expect(started(events)).toEqual(["r1", "w1", "r2"]);
    });

    it("errors the stream with a TypeError when the group's tools disagree on its limit", async () => {
      const a = held("a", { concurrency: { group: "db", limit: 2 } });
      const b = held("b", { concurrency: { group: "db", limit: 3 } });
      await expect(runToolCalls([call("1", "a"), call("2", "b")], [a.tool, b.tool])).rejects.toThrow(
        /every tool of concurrency group "db" to give the same `limit`: tool "b" gives 3, tool "a" 2/,
      );
    });
  });

  it("answers every call of a large batch through a limited lane, in input order", async () => {
    let running = 0;
    let peak = 0;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      control: { concurrency: 3 },
      handler: async ({ i }) => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        return ok(i);
      },
    });
    const { messages } = await runToolCalls(
      Array.from({ length: 40 }, (_, i) => call(`c${i}`, "t", { i })),
      [tool],
      { maxConcurrency: 10 },
    );
    expect(messages.map((m) => m.content)).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
    expect(peak).toBe(3);
  });

  it("is checked by defineTool, naming the field", () => {
    const define = (control: unknown) => () => defineTool({ name: "t", description: "", schema: anyArgs, control: control as ToolControl });
    expect(define({ concurrency: 0 })).toThrow(/`control.concurrency` of tool "t" to be a positive integer, got 0/);
    expect(define({ concurrency: { group: "", limit: 2 } })).toThrow(/`control.concurrency` of tool "t"/);
    expect(define("fast")).toThrow(/`control` of tool "t" to be an object, got "fast"/);
  });

  it("is checked on first use for a tool written as a plain object", async () => {
    const tool = { name: "t", description: "", schema: anyArgs, manual: false, metadata: {}, control: { concurrency: -1 }, handler: () => ok(1) } as Tool;
    await expect(runToolCalls([call("1", "t")], [tool])).rejects.toThrow(/`control.concurrency` of tool "t"/);
  });
});
