/**
 * `checkConversation`: each provider's documented wire rules for tool calls and messages,
 * checked on the provider's own request format.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkConversation, type ConversationProvider } from "../../src/providers/index.js";

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

const chatCall = (id: string, name = "weather") => ({ id, type: "function", function: { name, arguments: "{}" } });

describe("checkConversation", () => {
  describe('when the provider is "openai-chat"', () => {
    const asked = { role: "assistant", content: null, tool_calls: [chatCall("c1"), chatCall("c2")] };

    it("accepts each call answered right after its assistant message, in any order", () => {
      const messages = [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
        asked,
        { role: "tool", tool_call_id: "c2", content: "b" },
        { role: "tool", tool_call_id: "c1", content: "a" },
        { role: "assistant", content: "Done." },
      ];
      expect(checkConversation(messages, "openai-chat")).toEqual([]);
    });

    it("reports a call whose answer comes after another message, and the answer that lost its call", () => {
      const messages = [
        { role: "user", content: "Weather?" },
        asked,
        { role: "tool", tool_call_id: "c1", content: "a" },
        { role: "assistant", content: "Friday?" },
        { role: "user", content: "Yes" },
        { role: "tool", tool_call_id: "c2", content: "b" },
      ];
      const issues = checkConversation(messages, "openai-chat");
      expect(codes(issues)).toEqual([
        { code: "missing_tool_result", path: [1, "tool_calls", 1] },
        { code: "orphan_tool_result", path: [5, "tool_call_id"] },
      ]);
      expect(issues[0]?.message).toBe(
        'Tool call "c2" (weather) of message 1 has no tool message before message 3: Chat Completions wants one tool message per call right after the assistant message',
      );
    });

    it("reports two answers to one call, an answer to a call never made, and an unanswered call at the end", () => {
      const messages = [
        { role: "user", content: "Weather?" },
        asked,
        { role: "tool", tool_call_id: "c1", content: "a" },
        { role: "tool", tool_call_id: "c1", content: "a again" },
        { role: "tool", tool_call_id: "zz", content: "?" },
      ];
      expect(codes(checkConversation(messages, "openai-chat"))).toEqual([
        { code: "duplicate_tool_result", path: [3, "tool_call_id"] },
        { code: "orphan_tool_result", path: [4, "tool_call_id"] },
        { code: "missing_tool_result", path: [1, "tool_calls", 1] },
      ]);
    });

    it("lets the last turn's calls wait with `pendingCalls`, and only the last turn's", () => {
      const waiting = [{ role: "user", content: "Weather?" }, asked, { role: "tool", tool_call_id: "c1", content: "a" }];
      expect(checkConversation(waiting, "openai-chat", { pendingCalls: true })).toEqual([]);
      const earlier = [...waiting, { role: "user", content: "Well?" }, { role: "assistant", content: null, tool_calls: [chatCall("c3")] }];
      expect(codes(checkConversation(earlier, "openai-chat", { pendingCalls: true }))).toEqual([{ code: "missing_tool_result", path: [1, "tool_calls", 1] }]);
    });

    it("reports shapes the API refuses: a duplicate call id in one message, empty `tool_calls`, null content without calls, an unknown role", () => {
      const messages = [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: null, tool_calls: [chatCall("c1"), chatCall("c1")] },
        { role: "tool", tool_call_id: "c1", content: "a" },
        { role: "assistant", content: null, tool_calls: [] },
        { role: "robot", content: "beep" },
        42,
      ];
      expect(codes(checkConversation(messages, "openai-chat"))).toEqual([
        { code: "duplicate_tool_call", path: [1, "tool_calls", 1, "id"] },
        { code: "invalid_type", path: [3, "tool_calls"] },
        { code: "invalid_type", path: [3, "content"] },
        { code: "invalid_role", path: [4, "role"] },
        { code: "invalid_type", path: [5] },
      ]);
    });
  });

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

  describe('when the provider is "anthropic"', () => {
    const use = (id: string, input: unknown = {}) => ({ type: "tool_use", id, name: "weather", input });
    const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "x" });

    it("accepts alternating turns with every tool_use answered first thing in the next user message", () => {
      const messages = [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: [{ type: "text", text: "Checking." }, use("t1"), use("t2")] },
        { role: "user", content: [result("t2"), result("t1"), { type: "text", text: "And Oslo?" }] },
        { role: "assistant", content: "" },
      ];
      expect(checkConversation(messages, "anthropic")).toEqual([]);
    });

    it("reports empty content anywhere but the final assistant message", () => {
      const messages = [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: "" },
        { role: "user", content: [{ type: "text", text: " " }] },
        { role: "assistant", content: [] },
        { role: "user", content: "Hello?" },
      ];
      expect(codes(checkConversation(messages, "anthropic"))).toEqual([
        { code: "empty_content", path: [1, "content"] },
        { code: "empty_content", path: [2, "content", 0, "text"] },
        { code: "empty_content", path: [3, "content"] },
      ]);
    });

    it("reports roles that do not alternate, a system message, and tool results not in the next message", () => {
      const messages = [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather?" },
        { role: "assistant", content: [use("t1")] },
        { role: "assistant", content: "Friday?" },
        { role: "user", content: [result("t1")] },
      ];
      expect(codes(checkConversation(messages, "anthropic"))).toEqual([
        { code: "invalid_role", path: [0, "role"] },
        { code: "roles_not_alternating", path: [3, "role"] },
        { code: "missing_tool_result", path: [2, "content", 0] },
        { code: "orphan_tool_result", path: [4, "content", 0, "tool_use_id"] },
      ]);
    });

    it("reports blocks out of place, a second result, a reused id and an input that is not an object", () => {
      const messages = [
        { role: "user", content: [use("t0")] },
        { role: "assistant", content: [use("t1", '{"city": "Os'), use("t1"), result("t0")] },
        { role: "user", content: [{ type: "text", text: "Here:" }, result("t1"), result("t1")] },
      ];
      expect(codes(checkConversation(messages, "anthropic"))).toEqual([
        { code: "misplaced_block", path: [0, "content", 0] },
        { code: "invalid_type", path: [1, "content", 0, "input"] },
        { code: "duplicate_tool_call", path: [1, "content", 1, "id"] },
        { code: "misplaced_block", path: [1, "content", 2] },
        { code: "orphan_tool_result", path: [1, "content", 2, "tool_use_id"] },
        { code: "misplaced_block", path: [2, "content", 1] },
        { code: "misplaced_block", path: [2, "content", 2] },
        { code: "duplicate_tool_result", path: [2, "content", 2, "tool_use_id"] },
      ]);
    });

    it("lets the final assistant message's tool_use blocks wait with `pendingCalls`", () => {
      const messages = [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: [use("t1")] },
      ];
      expect(checkConversation(messages, "anthropic", { pendingCalls: true })).toEqual([]);
      expect(codes(checkConversation(messages, "anthropic"))).toEqual([{ code: "missing_tool_result", path: [1, "content", 0] }]);
    });
  });

  describe("when called wrongly", () => {
    it("throws a TypeError naming the argument", () => {
      expect(() => checkConversation("hi" as never, "anthropic")).toThrow(
        new TypeError("Expected `messages` of `checkConversation` to be an array, got a string"),
      );
      expect(() => checkConversation([], "gemini" as never)).toThrow(
        new TypeError('Expected `provider` of `checkConversation` to be "openai-chat", "openai-responses" or "anthropic", got "gemini"'),
      );
      expect(() => checkConversation([], "anthropic", { pendingCalls: "yes" as never })).toThrow(
        new TypeError("Expected `pendingCalls` of `checkConversation` to be a boolean, got a string"),
      );
    });
  });
});

describe("checkConversation on anything at all", () => {
  it("reports issues and never throws, for every provider", () => {
    const any = fc.anything({ withNullPrototype: true, withBigInt: true, withObjectString: true, withMap: true });
    const block = fc.record(
      {
        type: fc.oneof(
          fc.constantFrom(
            "function_call",
            "function_call_output",
            "message",
            "text",
            "tool_use",
            "tool_result",
            "web_search_call",
            "mcp_call",
            "tool_search_output",
          ),
          any,
        ),
        id: any,
        call_id: any,
        tool_use_id: any,
        text: any,
        input: any,
        output: any,
        content: any,
      },
      { requiredKeys: [] },
    );
    const loose = fc.oneof(
      any,
      fc.record(
        {
          role: fc.oneof(fc.constantFrom("user", "assistant", "tool", "system"), any),
          content: fc.oneof(any, fc.array(block, { maxLength: 3 })),
          tool_calls: any,
          tool_call_id: any,
        },
        { requiredKeys: [] },
      ),
      block,
    );
    fc.assert(
      fc.property(
        fc.array(loose, { maxLength: 6 }),
        fc.constantFrom("openai-chat", "openai-responses", "anthropic") satisfies fc.Arbitrary<ConversationProvider>,
        fc.boolean(),
        (messages, provider, pendingCalls) => {
          const issues = checkConversation(messages, provider, { pendingCalls });
          for (const issue of issues) expect(typeof issue.message).toBe("string");
        },
      ),
      { numRuns: 2000 },
    );
    // 3 s on an idle machine; a hunt (seed 843782374, a loaded machine) saw 25 s, past vitest's default 20.
  }, 120_000);
});
