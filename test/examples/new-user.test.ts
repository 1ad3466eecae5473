import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, EngineError, error, ok, runToolCalls, streamToolCalls, type HandlerResult, type ToolCall } from "../../src/index.js";
import { anyArgs, call, eventsOf } from "../support/helpers.js";

const weather = defineTool({ name: "weather", description: "", schema: anyArgs, handler: () => ok({ tempC: 21 }) });
const search = defineTool({ name: "search", description: "", schema: anyArgs, handler: () => ok("3 hits") });

describe("mistakes a new user makes (issue 9)", () => {
  describe("two calls with one id in a batch", () => {
    it("is a TypeError naming both indices, since providers reject two answers to one id", async () => {
      const calls = [call("a", "weather"), call("b", "weather"), call("a", "search")];
      await expect(runToolCalls(calls, [weather, search])).rejects.toThrow(
        new TypeError('Expected tool call ids to be unique, got "a" at index 0 and 2; providers reject two answers to one id'),
      );
      expect(() => streamToolCalls(calls, [weather, search])).toThrow(TypeError);
    });

    it("is found in a large batch too", () => {
      const calls = Array.from({ length: 40 }, (_, i) => call(`c${i}`, "weather"));
      calls[33] = call("c7", "weather");
      expect(() => streamToolCalls(calls, [weather])).toThrow('got "c7" at index 7 and 33');
      expect(() => streamToolCalls(calls.slice(0, 33), [weather])).not.toThrow();
    });
  });

  describe("a hallucinated tool name", () => {
    const calls = [call("c0", "weather"), call("c1", "wheather"), call("c2", "search")];

    it("by default fails the batch with an EngineError naming the tools that exist and the closest match", async () => {
      const failure = await runToolCalls(calls, [weather, search]).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(EngineError);
      expect(failure).toMatchObject({
        message: 'tool wheather not in tools; available tools: weather, search; did you mean "weather"?',
        metadata: { toolName: "wheather", availableTools: ["weather", "search"], closestMatch: "weather" },
      });
    });

    it('with onUnknownTool: "answer", answers that call alone not_found with a text the model can act on', async () => {
      const { messages } = await runToolCalls(calls, [weather, search], { onUnknownTool: "answer" });
      expect(messages).toEqual([
        { role: "tool", toolCallId: "c0", name: "weather", content: '{"tempC":21}', isError: false },
        {
          role: "tool",
          toolCallId: "c1",
          name: "wheather",
          content: '{"error":"not_found: tool wheather does not exist; available tools: weather, search; did you mean \\"weather\\"?"}',
          isError: true,
        },
        { role: "tool", toolCallId: "c2", name: "search", content: "3 hits", isError: false },
      ]);
    });

    it('with onUnknownTool: "answer", the not_found error goes through the policy', async () => {
      let seen: unknown;
      const result = await runToolCalls(calls, [weather, search], {
        onUnknownTool: "answer",
        onToolError: (_call, e) => {
          seen = e;
          return "halt";
        },
      });
      expect(seen).toMatchObject({ reason: "not_found", toolCallId: "c1", metadata: { closestMatch: "weather" } });
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c1" });
    });

    it('onUnknownTool must be "fail" or "answer"', () => {
      expect(() => streamToolCalls(calls, [weather], { onUnknownTool: "skip" as never })).toThrow(
        new TypeError('Expected `onUnknownTool` to be "fail" or "answer", got "skip"'),
      );
    });
  });

  describe("a tool name providers refuse", () => {
    it.each(["get weather", "weather/v2", "x".repeat(65), "météo"])("%j is a TypeError naming the rule", (name) => {
      expect(() => defineTool({ name, description: "", schema: anyArgs })).toThrow(/^Expected `name` to match \/\^\[a-zA-Z0-9_-\]\{1,64\}\$\//);
    });

    it("64 letters, digits, _ and - are accepted", () => {
      expect(defineTool({ name: `${"a".repeat(60)}_-9Z`, description: "", schema: anyArgs }).name).toHaveLength(64);
    });
  });

  describe("provider objects passed straight in", () => {
    const cases: [string, unknown, RegExp][] = [
      [
        "OpenAI's message.tool_calls item",
        { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
        /got an OpenAI Chat Completions tool call: convert it with openai\.parseToolCalls\(message\)/,
      ],
      [
        "an Anthropic tool_use block",
        { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
        /got an Anthropic tool_use block: convert it with anthropic\.parseToolCalls\(message\)/,
      ],
      [
        "a Responses function_call item",
        { type: "function_call", call_id: "call_1", name: "weather", arguments: "{}" },
        /got an OpenAI Responses function_call item: convert it with openai\.parseResponseOutput\(response\.output\)/,
      ],
    ];
    it.each(cases)("%s: a TypeError saying which parser of toolrx/providers to use", (_, provider, message) => {
      expect(() => streamToolCalls([provider as ToolCall], [weather])).toThrow(message);
      expect(() => streamToolCalls([provider as ToolCall], [weather])).toThrow(/index 0 .*from "toolrx\/providers"$/);
    });
  });

  describe("a handler returning a plain value", () => {
    it("tells the model the legal shapes and to wrap the value in ok()", async () => {
      const bare = defineTool({ name: "bare", description: "", schema: anyArgs, handler: () => "sunny" as unknown as HandlerResult });
      const { messages } = await runToolCalls([call("c0", "bare")], [bare]);
      expect(JSON.parse(messages[0]?.content ?? "").error).toBe(
        'invalid_return: tool bare returned "sunny", which is not a result: return ok(value) (wrap a plain value in ok()), error(reason), askUser(question) or halt(reason, result): "sunny"',
      );
    });

    it("says the same when a custom executor returns one", async () => {
      const events = await eventsOf([call("c0", "weather")], [weather], { toolExecutor: { execute: () => 42 as unknown as HandlerResult } });
      expect(events[2]).toMatchObject({ content: expect.stringContaining("returned 42, which is not a result: return ok(value)") });
    });
  });
});

describe("validation errors still read as before", () => {
  it("error(reason) with a string reason is sent as it is", async () => {
    const t = defineTool({ name: "t", description: "", schema: z.object({}), handler: () => error("at least one city is required") });
    const { messages } = await runToolCalls([call("c0", "t")], [t]);
    expect(messages[0]?.content).toBe('{"error":"at least one city is required"}');
  });
});
