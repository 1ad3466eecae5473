import { describe, expect, it } from "vitest";
import { checkConversation } from "../../src/providers/index.js";

const codes = (issues: readonly { code: string; path: readonly (string | number)[] }[]) => issues.map(({ code, path }) => ({ code, path }));

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
