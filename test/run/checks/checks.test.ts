import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, EngineError, ok, runToolCalls, streamToolCalls, type ToolCall } from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/run-options";
import { anyArgs, call } from "../../support/helpers.js";

const echo = defineTool({ name: "echo", description: "", schema: anyArgs, handler: (args) => ok(args) });

describe("checks before anything runs", () => {
  describe("when `onToolError` is not a policy", () => {
    const bad: [string, unknown][] = [
      ["a string", "ignore"],
      ["null", null],
      ["a number", 1],
      ["a function of 3 parameters", (_a: unknown, _b: unknown, _c: unknown) => "halt"],
    ];
    it.each(bad)("streamToolCalls throws a TypeError naming the (toolCall, error) signature: %s", (_, onToolError) => {
      expect(() => streamToolCalls([call("c1", "echo")], [echo], { onToolError } as RunOptions)).toThrow(TypeError);
      expect(() => streamToolCalls([call("c1", "echo")], [echo], { onToolError } as RunOptions)).toThrow(/\(toolCall, error\)/);
    });

    it.each(bad)("runToolCalls rejects with it: %s", async (_, onToolError) => {
      await expect(runToolCalls([call("c1", "echo")], [echo], { onToolError } as RunOptions)).rejects.toThrow(/\(toolCall, error\)/);
    });

    it("accepts functions of 0, 1 and 2 parameters", () => {
      for (const onToolError of [() => "halt" as const, (_c: ToolCall) => "halt" as const, (_c: ToolCall, _e: unknown) => "halt" as const]) {
        expect(() => streamToolCalls([], [echo], { onToolError })).not.toThrow();
      }
    });
  });

  describe("when an option has the wrong type", () => {
    const bad: [string, RunOptions, RegExp][] = [
      ["maxConcurrency 0", { maxConcurrency: 0 }, /`maxConcurrency` to be a positive integer, got 0/],
      ["maxConcurrency 1.5", { maxConcurrency: 1.5 }, /`maxConcurrency`.*got 1.5/],
      ["maxConcurrency -1", { maxConcurrency: -1 }, /`maxConcurrency`/],
      ['maxConcurrency "4"', { maxConcurrency: "4" as never }, /`maxConcurrency`.*got "4"/],
      ["toolTimeout 0", { toolTimeout: 0 }, /`toolTimeout` to be Infinity or a positive number.*2147483647, got 0/],
      ["toolTimeout -5", { toolTimeout: -5 }, /`toolTimeout`/],
      ["toolTimeout NaN", { toolTimeout: Number.NaN }, /`toolTimeout`.*NaN/],
      ["toolTimeout over 2^31-1", { toolTimeout: 2_147_483_648 }, /`toolTimeout`/],
      ['toolTimeout "100"', { toolTimeout: "100" as never }, /`toolTimeout`/],
      ["signal not an AbortSignal", { signal: {} as never }, /`signal` to be an AbortSignal/],
      ['validateArguments "yes"', { validateArguments: "yes" as never }, /`validateArguments` to be a boolean/],
      ["toolExecutor without execute", { toolExecutor: {} as never }, /`toolExecutor`.*`execute`/],
      ["toolResultEncoder without encodeError", { toolResultEncoder: { encode: String } as never }, /`toolResultEncoder`/],
      ["sessionId a number", { sessionId: 1 as never }, /`sessionId` to be a string/],
      ["scheduler not a scheduler", { scheduler: {} as never }, /`scheduler`/],
    ];
    it.each(bad)("streamToolCalls throws, runToolCalls rejects: %s", async (_, options, message) => {
      expect(() => streamToolCalls([call("c1", "echo")], [echo], options)).toThrow(TypeError);
      expect(() => streamToolCalls([call("c1", "echo")], [echo], options)).toThrow(message);
      await expect(runToolCalls([call("c1", "echo")], [echo], options)).rejects.toThrow(message);
    });

    it("accepts toolTimeout Infinity and the largest timer delay", () => {
      expect(() => streamToolCalls([], [echo], { toolTimeout: Infinity })).not.toThrow();
      expect(() => streamToolCalls([], [echo], { toolTimeout: 2_147_483_647 })).not.toThrow();
    });

    it("checks options even for an empty batch", async () => {
      expect(() => streamToolCalls([], [echo], { maxConcurrency: 0 })).toThrow(TypeError);
      await expect(runToolCalls([], [echo], { maxConcurrency: 0 })).rejects.toThrow(TypeError);
    });

    it("checks onToolError before the other options", () => {
      expect(() => streamToolCalls([], [echo], { onToolError: "x" as never, maxConcurrency: 0 })).toThrow(/onToolError/);
    });
  });

  describe("when a call is malformed", () => {
    const bad: [string, unknown, RegExp][] = [
      ["not an object", 42, /tool call at index 1 to be an object/],
      ["missing id", { name: "echo", arguments: {} }, /`id` of tool call at index 1/],
      ["missing name", { id: "x", arguments: {} }, /`name` of tool call at index 1/],
      ["arguments a string", { id: "x", name: "echo", arguments: "{}" }, /`arguments` of tool call at index 1 to be an object, got "\{\}"/],
      ["arguments null", { id: "x", name: "echo", arguments: null }, /`arguments` of tool call at index 1/],
      ["arguments an array", { id: "x", name: "echo", arguments: [] }, /`arguments` of tool call at index 1/],
      ["rawArguments not a string", { id: "x", name: "echo", arguments: {}, rawArguments: {} }, /`rawArguments` of tool call at index 1/],
    ];
    it.each(bad)("rejects the batch up front with a TypeError naming the index: %s", async (_, bad, message) => {
      const handler = vi.fn(() => ok(1));
      const tool = defineTool({ name: "echo", description: "", schema: anyArgs, handler });
      const calls = [call("c0", "echo"), bad] as ToolCall[];
      expect(() => streamToolCalls(calls, [tool])).toThrow(message);
      await expect(runToolCalls(calls, [tool])).rejects.toThrow(TypeError);
      expect(handler).not.toHaveBeenCalled();
    });

    it("rejects calls that are neither an array nor an Observable", async () => {
      expect(() => streamToolCalls("calls" as never, [echo])).toThrow(/`calls`/);
      await expect(runToolCalls({} as never, [echo])).rejects.toThrow(/`calls`/);
    });

    it("rejects tools that are not a list of tools", () => {
      expect(() => streamToolCalls([], "echo" as never)).toThrow(/`tools`/);
      expect(() => streamToolCalls([], [null] as never)).toThrow(/tool at index 0/);
    });
  });

  describe("when the batch is empty", () => {
    it("runToolCalls gives { messages: [] }", async () => {
      expect(await runToolCalls([], [echo])).toEqual({ messages: [] });
    });

    it("streamToolCalls completes with no event", async () => {
      expect(await firstValueFrom(streamToolCalls([], [echo]).pipe(toArray()))).toEqual([]);
    });
  });

  describe("when a call names an unknown tool", () => {
    it("fails the whole batch with EngineError unknown_tool and runs nothing", async () => {
      const handler = vi.fn(() => ok(1));
      const tool = defineTool({ name: "echo", description: "", schema: anyArgs, handler });
      const calls = [call("c0", "echo"), call("c1", "wether"), call("c2", "nope")];
      const error = await runToolCalls(calls, [tool]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({
        reason: "unknown_tool",
        message: "tool wether not in tools; available tools: echo",
        metadata: { toolName: "wether", availableTools: ["echo"] },
      });
      expect(handler).not.toHaveBeenCalled();
    });

    it("errors the stream with it, with no event first", async () => {
      const events: unknown[] = [];
      const error = await new Promise((resolve) => {
        streamToolCalls([call("c0", "echo"), call("c1", "wether")], [echo]).subscribe({ next: (e) => events.push(e), error: resolve });
      });
      expect(error).toBeInstanceOf(EngineError);
      expect(events).toEqual([]);
    });

    it("is checked lazily, on subscribe: the stream itself is cold", () => {
      expect(() => streamToolCalls([call("c1", "wether")], [echo])).not.toThrow();
    });
  });

  it("refuses two tools with one name, naming both", async () => {
    const first = defineTool({ name: "dup", description: "", schema: anyArgs, handler: () => ok("first") });
    const second = defineTool({ name: "dup", description: "", schema: anyArgs, handler: () => ok("second") });
    await expect(runToolCalls([call("c1", "dup")], [first, second])).rejects.toThrow(/^Two tools are named "dup": tools\[0\] and tools\[1\]/);
  });

  it("is cold: nothing runs before subscribe, and each subscription runs the batch again", async () => {
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({ name: "t", description: "", schema: z.object({}), handler });
    const stream = streamToolCalls([call("c1", "t")], [tool]);
    expect(handler).not.toHaveBeenCalled();
    await firstValueFrom(stream.pipe(toArray()));
    await firstValueFrom(stream.pipe(toArray()));
    expect(handler).toHaveBeenCalledTimes(2);
  });
});
