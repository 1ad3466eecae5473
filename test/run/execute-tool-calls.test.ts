import { firstValueFrom, from, Subject, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, executeToolCalls, ok, streamToolCalls, type ToolCall, type ToolEvent } from "../../src/index.js";
import { call } from "../support/helpers.js";

const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });

describe("executeToolCalls", () => {
  it("is streamToolCalls on the source Observable: the same events", async () => {
    const calls = [call("c1", "echo", { text: "a" }), call("c2", "nope"), call("c3", "echo", { text: 1 })];
    const piped = await firstValueFrom(from(calls).pipe(executeToolCalls([echo]), toArray()));
    const direct = await firstValueFrom(streamToolCalls(from(calls), [echo]).pipe(toArray()));
    expect(piped).toEqual(direct);
    expect(piped.filter((e) => e.type === "tool_result_encoded").map((e) => [e.index, e.toolCallId, e.isError])).toEqual([
      [0, "c1", false],
      [1, "c2", true],
      [2, "c3", true],
    ]);
  });

  it("starts each call as it arrives", () => {
    const calls = new Subject<ToolCall>();
    const events: ToolEvent[] = [];
    calls.pipe(executeToolCalls([echo])).subscribe((e) => events.push(e));
    calls.next(call("c1", "echo", { text: "a" }));
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
  });

  it("checks options and tools when the operator is made", () => {
    expect(() => executeToolCalls([echo], { maxConcurrency: 0 })).toThrow("Expected `maxConcurrency` to be a positive integer, got 0");
    expect(() => executeToolCalls("echo" as never)).toThrow(TypeError);
  });
});
