import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, memoryResultStore, ok, resultPages, runAgent, runToolCalls, type ResultStore } from "../../src/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { finish, text, toolCall, user } from "../support/agent-helpers.js";

const big = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join("\n");
const report = defineTool({ name: "report", description: "a long report", schema: z.object({}), handler: () => ok(big) });

/** The handle and offset the note after a page gives. */
function next(content: string): { handle: string; offset: number } | undefined {
  const m = /read_result\((\{.*\})\) reads on\]$/.exec(content);
  return m === null ? undefined : JSON.parse(m[1] as string);
}

describe("resultPages", () => {
  it("answers a long result with its head and a handle, and the read tool pages through all of it", async () => {
    const pages = resultPages({ budget: 1_000 });
    const first = await runToolCalls([{ id: "c1", name: "report", arguments: {} }], [report, pages.readTool], { toolResultEncoder: pages.encoder });
    let content = first.messages[0]?.content as string;
    expect(content.length).toBeLessThanOrEqual(1_000);
    let whole = "";
    for (let i = 0; ; i++) {
      const at = next(content);
      whole += at === undefined ? content : content.slice(0, content.lastIndexOf("\n[… "));
      if (at === undefined) break;
      const read = await runToolCalls([{ id: `r${i}`, name: "read_result", arguments: at }], [report, pages.readTool], { toolResultEncoder: pages.encoder });
      content = read.messages[0]?.content as string;
      expect(content.length).toBeLessThanOrEqual(1_000);
    }
    expect(whole).toBe(big);
  });

  it("leaves a result within the budget as it is", async () => {
    const pages = resultPages({ budget: 256 });
    expect(pages.encoder.encode({ a: 1 })).toBe('{"a":1}');
    expect(pages.encoder.encodeError("boom")).toBe('{"error":"boom"}');
  });

  it("gives the same handle for the same text in any process, and answers an unknown handle with an error", async () => {
    const store = memoryResultStore();
    const a = resultPages({ budget: 300, store }).encoder.encode(big);
    const b = resultPages({ budget: 300 }).encoder.encode(big);
    expect(next(a)).toEqual(next(b));
    const { readTool } = resultPages({ budget: 300, store: memoryResultStore() });
    const read = await runToolCalls([{ id: "r", name: "read_result", arguments: { handle: "rnope", offset: 0 } }], [readTool]);
    expect(read.messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("expired or was never given") });
  });

  it("works in the agent loop with an async store", async () => {
    const kept = new Map<string, string>();
    const store: ResultStore = { put: async (h, t) => void kept.set(h, t), get: async (h) => kept.get(h) };
    const pages = resultPages({ budget: 500, store });
    const model = scriptedModel([
      [toolCall("c1", "report"), finish("tool_calls")],
      (r) => {
        const answer = r.messages.at(-1);
        const at = answer?.role === "tool" ? next(answer.content) : undefined;
        return [toolCall("c2", "read_result", at ?? {}), finish("tool_calls")];
      },
      [text("read"), finish("stop")],
    ]);
    const result = await runAgent({ model, tools: [report, pages.readTool], toolResultEncoder: pages.encoder, messages: [user("go")] });
    const answers = result.messages.filter((m) => m.role === "tool");
    expect(answers[1]).toMatchObject({ isError: false });
    // The second page goes on where the first stopped.
    const [first, second] = answers.map((m) => (m.role === "tool" ? m.content : ""));
    const firstPage = (first ?? "").split("\n[… ")[0] ?? "";
    expect((second ?? "").startsWith(big.slice(firstPage.length, firstPage.length + 100))).toBe(true);
  });

  it("refuses bad options by name", () => {
    expect(() => resultPages({ budget: 100 })).toThrow("`budget`");
    expect(() => resultPages({ budget: 1_000, store: {} as ResultStore })).toThrow("`store`");
    expect(() => memoryResultStore({ maxEntries: 0 })).toThrow("`maxEntries`");
  });
});
