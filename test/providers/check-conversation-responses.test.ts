/**
 * `checkConversation` on OpenAI's Responses input: its own function calls and outputs, and the
 * items OpenAI runs itself and sends whole.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkConversation } from "../../src/providers/index.js";

const codes = (issues: readonly { code: string; path: readonly (string | number)[] }[]) => issues.map(({ code, path }) => ({ code, path }));

/** One item of each kind OpenAI runs itself and sends whole, as its API writes them. */
const HOSTED_ITEMS: readonly Record<string, unknown>[] = [
  { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "Oslo weather" } },
  { type: "file_search_call", id: "fs_1", status: "completed", queries: ["Oslo"], results: null },
  { type: "code_interpreter_call", id: "ci_1", status: "completed", code: "1+1", container_id: "cntr_1", outputs: [] },
  { type: "image_generation_call", id: "ig_1", status: "completed", result: "aGk=" },
  { type: "mcp_call", id: "mcp_1", name: "forecast", arguments: "{}", server_label: "weather", output: "cold" },
  { type: "mcp_list_tools", id: "mcpl_1", server_label: "weather", tools: [] },
];

describe("checkConversation", () => {
  describe('when the provider is "openai-responses"', () => {
    const call = (id: string) => ({ type: "function_call", call_id: id, name: "weather", arguments: "{}" });
    const output = (id: string) => ({ type: "function_call_output", call_id: id, output: "x" });

    it("accepts one output per call, after it, with other items in between", () => {
      const items = [
        { role: "user", content: "Weather?" },
        { type: "reasoning", id: "rs_1", summary: [] },
        call("c1"),
        call("c2"),
        output("c2"),
        { role: "assistant", content: "Working." },
        output("c1"),
      ];
      expect(checkConversation(items, "openai-responses")).toEqual([]);
    });

    it("reports a call without output, an output before or without its call, a second output and a reused call_id", () => {
      const items = [{ role: "user", content: "Weather?" }, output("c1"), call("c1"), call("c2"), output("c2"), output("c2"), call("c2")];
      expect(codes(checkConversation(items, "openai-responses"))).toEqual([
        { code: "orphan_tool_result", path: [1, "call_id"] },
        { code: "missing_tool_result", path: [2] },
        { code: "duplicate_tool_result", path: [5, "call_id"] },
        { code: "duplicate_tool_call", path: [6, "call_id"] },
      ]);
    });

    it("lets calls after the last message wait with `pendingCalls`", () => {
      const items = [{ role: "user", content: "Weather?" }, call("c1"), call("c2"), output("c1")];
      expect(checkConversation(items, "openai-responses", { pendingCalls: true })).toEqual([]);
      expect(codes(checkConversation(items, "openai-responses"))).toEqual([{ code: "missing_tool_result", path: [2] }]);
      const answeredLater = [...items, { role: "user", content: "Well?" }];
      expect(codes(checkConversation(answeredLater, "openai-responses", { pendingCalls: true }))).toEqual([{ code: "missing_tool_result", path: [2] }]);
    });
  });

  describe('when the provider is "openai-responses" and the input holds items OpenAI ran', () => {
    const call = (id: string) => ({ type: "function_call", call_id: id, name: "weather", arguments: "{}" });
    const output = (id: string) => ({ type: "function_call_output", call_id: id, output: "x" });

    it("accepts each kind, with its result inside it, and a tool search's call and output as OpenAI wrote them", () => {
      const items = [
        { role: "user", content: "Weather in Oslo?" },
        { type: "reasoning", id: "rs_1", summary: [] },
        ...HOSTED_ITEMS,
        { type: "tool_search_call", id: "tsc_1", call_id: null, execution: "server", arguments: { query: "weather" }, status: "completed" },
        { type: "tool_search_output", id: "tso_1", call_id: null, execution: "server", tools: [], status: "completed" },
        { role: "assistant", content: "Looking." },
        call("c1"),
        output("c1"),
      ];
      expect(checkConversation(items, "openai-responses")).toEqual([]);
    });

    it("reports an item OpenAI ran without its `id`, which the API requires to take it back", () => {
      const { id: _id, ...noId } = HOSTED_ITEMS[0] as Record<string, unknown>;
      const items = [{ role: "user", content: "Weather?" }, noId, { ...HOSTED_ITEMS[4], id: "" }];
      expect(checkConversation(items, "openai-responses")).toEqual([
        { code: "invalid_type", path: [1, "id"], message: "Expected `id` to be a non-empty string, got undefined" },
        { code: "invalid_type", path: [2, "id"], message: 'Expected `id` to be a non-empty string, got ""' },
      ]);
    });

    it("reports a tool item sent twice: the API refuses two input items with one id", () => {
      const web = HOSTED_ITEMS[0] as { id: string };
      const items = [
        { role: "user", content: "Weather?" },
        web,
        { ...call("c1"), id: "fc_1" },
        output("c1"),
        { role: "user", content: "Again?" },
        web,
        { ...call("c2"), id: "fc_1" },
        output("c2"),
      ];
      expect(checkConversation(items, "openai-responses")).toEqual([
        {
          code: "duplicate_tool_call",
          path: [5, "id"],
          message: 'Item 5 (web_search_call) repeats the id "ws_1" of item 1: the Responses API refuses two input items with one id',
        },
        {
          code: "duplicate_tool_call",
          path: [6, "id"],
          message: 'Item 6 (function_call) repeats the id "fc_1" of item 2: the Responses API refuses two input items with one id',
        },
      ]);
    });

    it("accepts any input of unique items, and reports exactly the repeat of one, or the one whose id is gone", () => {
      const turn = fc.record({ say: fc.boolean(), items: fc.subarray([...HOSTED_ITEMS.keys()], { minLength: 1 }), calls: fc.nat({ max: 2 }) });
      fc.assert(
        fc.property(fc.array(turn, { minLength: 1, maxLength: 4 }), fc.nat(), fc.boolean(), (turns, pick, drop) => {
          const items: Record<string, unknown>[] = [];
          turns.forEach((t, k) => {
            items.push({ role: "user", content: `turn ${k}` });
            for (const h of t.items) items.push({ ...HOSTED_ITEMS[h], id: `${(HOSTED_ITEMS[h] as { id: string }).id}_${k}` });
            if (t.say) items.push({ role: "assistant", content: "Looking." });
            for (let c = 0; c < t.calls; c++) items.push({ ...call(`c${k}_${c}`), id: `fc_${k}_${c}` }, output(`c${k}_${c}`));
          });
          expect(checkConversation(items, "openai-responses")).toEqual([]);
          const tools = items.flatMap((item, i) => (typeof item.id === "string" ? [i] : []));
          const at = tools[pick % tools.length] as number;
          if (drop && items[at]?.type !== "function_call") {
            const broken = items.map((item, i) => (i === at ? { ...item, id: undefined } : item));
            expect(codes(checkConversation(broken, "openai-responses"))).toEqual([{ code: "invalid_type", path: [at, "id"] }]);
          } else {
            const repeated = [...items, { role: "user", content: "again" }, items[at]];
            expect(codes(checkConversation(repeated, "openai-responses"))).toEqual(
              items[at]?.type === "function_call"
                ? // A function call sent again is also a second call with its call_id.
                  [
                    { code: "duplicate_tool_call", path: [items.length + 1, "id"] },
                    { code: "duplicate_tool_call", path: [items.length + 1, "call_id"] },
                  ]
                : [{ code: "duplicate_tool_call", path: [items.length + 1, "id"] }],
            );
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});
