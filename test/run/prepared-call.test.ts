import { lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultExecutor, defineTool, ok, type RunOptions, type ToolCall, type ToolEvent } from "../../src/index.js";
import { preparedCall, streamOneCall } from "../../src/run/prepared-call.js";

const echoOf = (name: string, needsApproval: boolean) =>
  defineTool({
    name,
    description: "",
    schema: z.object({ text: z.string() }),
    needsApproval,
    handler: ({ text }, ctx) => ok({ text, context: ctx.context, sessionId: ctx.sessionId }),
  });
const echo = echoOf("echo", false);
const guarded = echoOf("guarded", true);
const tools = [echo, guarded];
const options: RunOptions = { context: { tenant: "t1" }, validateArguments: true, onUnknownTool: "answer" };

/** Events as plain data: errors by class, message and fields, so two runs' fresh instances compare. */
const plain = (events: ToolEvent[]): unknown =>
  JSON.parse(JSON.stringify(events, (_k, v: unknown) => (v instanceof Error ? { ...v, class: v.constructor.name, message: v.message } : v)));

describe("preparedCall", () => {
  it("runs each call as streamOneCall runs it under the same options: the worker's options reach the call, a gated tool's too", async () => {
    const prepared = preparedCall(tools, options);
    const calls: ToolCall[] = [
      { id: "c1", name: "echo", arguments: { text: "hi" } },
      { id: "c2", name: "echo", arguments: { text: 3 } },
      { id: "c3", name: "guarded", arguments: { text: "hi" } },
      { id: "c4", name: "missing", arguments: {} },
    ];
    for (const call of calls) {
      const events: ToolEvent[] = [];
      await new Promise<void>((resolve, reject) => {
        const run = { executor: defaultExecutor, signal: undefined, timeout: Infinity, sessionId: "s1", requestId: undefined, onReport: undefined };
        prepared(call, run, { closed: false, next: (e) => events.push(e), error: reject, complete: resolve });
      });
      const streamed = await lastValueFrom(streamOneCall(call, tools, { ...options, sessionId: "s1" }).pipe(toArray()));
      expect(plain(events)).toEqual(plain(streamed));
    }
  });
});
