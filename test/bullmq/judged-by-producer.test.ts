import { describe, expect, it } from "vitest";
import { lastValueFrom, toArray } from "rxjs";
import { z } from "zod";
import { defineTool, streamToolCalls, type HandlerResult, type Tool, type ToolCall, type ToolEvent, type ToolExecutor } from "../../src/index.js";
import { oneQueue } from "./one-queue.js";
import { redisUnavailable } from "./redis.js";

/**
 * What the runner judges after a call's retry plan (a halt with a reserved reason, content parts)
 * is judged by the producer's runner, which answers the call, and not by the worker's: a retried
 * tool's answer is then the same as in-process, with no `metadata.attempts` the retry plan adds to
 * an executor's error.
 */
const retry = { idempotent: true, retry: { attempts: 3, delay: 1, jitter: false } } as const;
const answering = (name: string, result: HandlerResult): Tool =>
  defineTool({ name, description: "", schema: z.object({}), control: retry, handler: () => result }) as unknown as Tool;

const tools: Tool[] = [
  answering("reserved", { type: "halt", reason: "completed", result: { done: 1 } }),
  answering("maxTurns", { type: "halt", reason: "max_turns", result: null }),
  answering("badParts", { type: "ok", value: "see the chart", parts: [{ type: "image", mediaType: "image/png" }] } as unknown as HandlerResult),
];

/** A call's completed result and tail event, in a form two runs compare on (an error's class, reason, message and metadata). */
async function answers(calls: ToolCall[], executor: ToolExecutor | undefined): Promise<unknown[]> {
  const events = await lastValueFrom(streamToolCalls(calls, tools, executor === undefined ? {} : { toolExecutor: executor }).pipe(toArray()));
  const shape = (e: ToolEvent): unknown => {
    if (e.type !== "tool_execution_completed" || e.result.type !== "error") return e;
    const { name, reason, message, metadata } = e.result.reason as { name: string; reason: string; message: string; metadata: unknown };
    return { ...e, result: { type: "error", reason: { name, reason, message, metadata } } };
  };
  return calls.map((c) => events.filter((e) => e.toolCallId === c.id).map(shape));
}

describe.skipIf(redisUnavailable !== undefined)("bullmqExecutor: a retried tool's result judged by the producer's runner", () => {
  const queue = oneQueue("judged", tools);

  it("answers a halt with a reserved reason `invalid_return` without `metadata.attempts`, as in-process", async () => {
    const calls: ToolCall[] = [
      { id: "r", name: "reserved", arguments: {} },
      { id: "m", name: "maxTurns", arguments: {} },
    ];
    const remote = await answers(calls, queue.executor());
    expect(remote).toEqual(await answers(calls, undefined));
    expect(remote[0]).toContainEqual(
      expect.objectContaining({
        result: { type: "error", reason: expect.objectContaining({ reason: "invalid_return", metadata: { reservedHaltReason: "completed" } }) },
      }),
    );
  });

  it("answers content parts that cannot be sent `invalid_return` without `metadata.attempts`, as in-process", async () => {
    const calls: ToolCall[] = [{ id: "p", name: "badParts", arguments: {} }];
    const remote = await answers(calls, queue.executor());
    expect(remote).toEqual(await answers(calls, undefined));
    expect(remote[0]).toContainEqual(
      expect.objectContaining({ result: { type: "error", reason: expect.objectContaining({ reason: "invalid_return", metadata: {} }) } }),
    );
  });
});
