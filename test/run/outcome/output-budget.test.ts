import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, runAgent, runToolCalls, streamToolCalls, type ToolEvent } from "../../../src/index.js";
import { cutToBudget } from "../../../src/run/outcome/output-budget.js";
import { call } from "../../support/helpers.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";

const MB2 = "a".repeat(1_000_000) + "b".repeat(1_000_000);
const dump = defineTool({ name: "dump", description: "", schema: z.object({}), handler: () => ok(MB2) });
const capped = defineTool({ name: "capped", description: "", schema: z.object({}), handler: () => ok(MB2), control: { outputBudget: 1_000 } });

async function eventsOf(options: Parameters<typeof streamToolCalls>[2], ...tools: (typeof dump)[]): Promise<ToolEvent[]> {
  const events: ToolEvent[] = [];
  await new Promise<void>((complete) =>
    streamToolCalls(
      tools.map((t, i) => call(`c${i}`, t.name)),
      tools,
      options,
    ).subscribe({ next: (e) => events.push(e), complete }),
  );
  return events;
}

describe("output budgets", () => {
  describe("when a 2 MB result meets a run-wide budget", () => {
    it("the model reads head and tail with a marker; the completed event keeps the whole value", async () => {
      const events = await eventsOf({ outputBudget: 10_000 }, dump);
      const completed = events.find((e) => e.type === "tool_execution_completed");
      const encoded = events.find((e) => e.type === "tool_result_encoded");
      expect(completed).toMatchObject({ result: ok(MB2) });
      const content = encoded?.type === "tool_result_encoded" ? encoded.content : "";
      expect(content.length).toBeLessThanOrEqual(10_000);
      expect(content.length).toBeGreaterThan(9_900);
      expect(content.startsWith("aaaa")).toBe(true);
      expect(content.endsWith("bbbb")).toBe(true);
      const cut = /\[… (\d+) of 2000000 characters cut …\]/.exec(content);
      expect(Number(cut?.[1])).toBe(2_000_000 - (content.length - (cut?.[0].length ?? 0) - 2));
    });
  });

  describe("when a tool declares its own budget", () => {
    it("it wins over the run's, and other tools keep the run's", async () => {
      const { messages } = await runToolCalls([call("c0", "capped"), call("c1", "dump")], [capped, dump], { outputBudget: 5_000 });
      expect(messages.map((m) => m.content.length)).toEqual([expect.any(Number), expect.any(Number)]);
      expect(messages[0]?.content.length).toBeLessThanOrEqual(1_000);
      expect(messages[1]?.content.length).toBeLessThanOrEqual(5_000);
      expect(messages[1]?.content.length).toBeGreaterThan(1_000);
    });

    it("applies with no run-wide budget at all", async () => {
      const { messages } = await runToolCalls([call("c0", "capped")], [capped]);
      expect(messages[0]?.content.length).toBeLessThanOrEqual(1_000);
    });
  });

  describe("when the content is an error text", () => {
    it("the error text is cut too and stays marked as an error", async () => {
      const loud = defineTool({ name: "loud", description: "", schema: z.object({}), handler: () => error(MB2) });
      const { messages } = await runToolCalls([call("c0", "loud")], [loud], { outputBudget: 500 });
      expect(messages[0]).toMatchObject({ isError: true });
      expect(messages[0]?.content.length).toBeLessThanOrEqual(500);
    });
  });

  describe("when content fits", () => {
    it("it is left as it is", async () => {
      const small = defineTool({ name: "small", description: "", schema: z.object({}), handler: () => ok("x".repeat(64)) });
      const { messages } = await runToolCalls([call("c0", "small")], [small], { outputBudget: 64 });
      expect(messages[0]?.content).toBe("x".repeat(64));
    });
  });

  describe("in the agent loop", () => {
    it("the conversation carries the cut text; the tool_event's completed result the whole value", async () => {
      let turn = 0;
      const result = await runAgent({
        model: () => (turn++ === 0 ? [toolCall("c1", "dump"), finish("tool_calls")] : [finish("stop")]),
        tools: [dump],
        messages: [user("go")],
        outputBudget: 2_000,
      });
      const tool = result.messages.find((m) => m.role === "tool");
      expect(tool?.content.length).toBeLessThanOrEqual(2_000);
    });
  });

  it("refuses a budget too small to hold the marker", () => {
    expect(() => streamToolCalls([], [dump], { outputBudget: 10 })).toThrow("Expected `outputBudget` to be an integer of characters from 64");
    expect(() => defineTool({ name: "t", description: "", schema: z.object({}), control: { outputBudget: 1.5 } })).toThrow(
      '`control.outputBudget` of tool "t"',
    );
  });

  it("never exceeds the budget, keeps a prefix and a suffix, and counts the cut exactly (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 3_000 }), fc.integer({ min: 64, max: 2_000 }), (text, budget) => {
        const cut = cutToBudget(text, budget);
        if (text.length <= budget) return cut === text;
        const match = /\n\[… (\d+) of (\d+) characters cut …\]\n/.exec(cut);
        if (match === null || cut.length > budget) return false;
        const head = cut.slice(0, match.index);
        const tail = cut.slice(match.index + match[0].length);
        return text.startsWith(head) && text.endsWith(tail) && Number(match[1]) === text.length - head.length - tail.length && Number(match[2]) === text.length;
      }),
    );
  });
});
