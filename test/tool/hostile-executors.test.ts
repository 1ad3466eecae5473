import { Observable, firstValueFrom, toArray, type Subscribable } from "rxjs";
import { describe, expect, it } from "vitest";
import {
  defaultExecutor,
  defineTool,
  error,
  jsonEncoder,
  ok,
  runToolCalls,
  streamToolCalls,
  type HandlerResult,
  type ToolCall,
  type ToolEvent,
  type ToolExecutor,
} from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";
import { anyArgs, call, contextFor } from "../support/helpers.js";
import { must } from "../support/must.js";
import { batch, expectAnswered, recordUnhandled, tools } from "./hostile-fixtures.js";

recordUnhandled();

describe("hostile values from user code (issue 9)", () => {
  describe("a custom executor returning a thenable whose then throws", () => {
    it("is handler_exit for that call alone, with no unhandled rejection and no hang", async () => {
      const executor: ToolExecutor = {
        execute(tool, args, ctx) {
          if (tool.name !== "t") return defaultExecutor.execute(tool, args, ctx);
          return {
            // biome-ignore lint/suspicious/noThenProperty: a thenable whose then throws is the case under test
            then: () => {
              throw new Error("then threw");
            },
          } as unknown as Promise<HandlerResult>;
        },
      };
      const messages = await expectAnswered(
        runToolCalls(
          batch,
          tools(() => ok(1)),
          { toolExecutor: executor },
        ),
      );
      expect(JSON.parse(messages[0]?.content ?? "").error).toBe("tool error (t): handler_exit: then threw");
    });
  });

  describe("defaultExecutor with a handler returning { get then() { throw } }", () => {
    it("converts it to invalid_return instead of throwing", () => {
      const tool = must(
        tools(() => ({
          // biome-ignore lint/suspicious/noThenProperty: a then getter that throws is the case under test
          get then() {
            throw new Error("then getter");
          },
        }))[0],
      );
      expect(defaultExecutor.execute(tool, {}, contextFor(call("c0", "t")))).toMatchObject({
        type: "error",
        reason: { reason: "invalid_return" },
      });
    });
  });

  describe("stack traces in model-visible content", () => {
    const inner = new Error("db down");
    const carriers: [string, () => unknown][] = [
      ["a plain object with a stack", () => error({ name: "Error", message: "db down", stack: inner.stack })],
      [
        "an axios-style error whose toJSON gives the stack",
        () => {
          const e = new Error("Request failed");
          Object.assign(e, { toJSON: () => ({ message: "Request failed", stack: inner.stack, config: { url: "/x" } }) });
          return error({ response: e, nested: { deeper: { stack: inner.stack } } });
        },
      ],
      ["a message that embeds another error's stack", () => error(new Error(`wrapped: ${inner.stack}`))],
      ["a returned value nested with a stack", () => ok({ report: { failure: { message: "db down", stack: inner.stack } } })],
      [
        "a thrown plain object",
        () => {
          throw { message: "db down", stack: inner.stack };
        },
      ],
    ];
    it.each(carriers)("%s: no `    at ` line and no file path reaches the content", async (_, handler) => {
      const { messages } = await runToolCalls([call("c0", "t")], tools(handler));
      const content = messages[0]?.content ?? "";
      expect(content).not.toContain("    at ");
      expect(content).not.toMatch(/\.(ts|js):\d+/);
      expect(content).toMatch(/db down|Request failed/);
    });

    it("a policy's { continue } value with a stack is encoded without it", async () => {
      const { messages } = await runToolCalls(
        [call("c0", "t")],
        tools(() => error("x")),
        {
          onToolError: () => ({ continue: { fallback: true, cause: { stack: inner.stack } } }),
        },
      );
      expect(messages[0]?.content).toBe('{"fallback":true,"cause":{}}');
    });

    it("a `stack` field that is not a trace is data, and kept", () => {
      expect(jsonEncoder.encode({ stack: "react, node" })).toBe('{"stack":"react, node"}');
    });
  });
});

describe("the calls array (issue 9)", () => {
  const echo = defineTool({ name: "t", description: "", schema: anyArgs, handler: async () => ok("done") });

  it("is what it held at call time: emptied right after, the batch still settles with every call", async () => {
    const calls = [call("c0", "t"), call("c1", "t"), call("c2", "t")];
    const pending = runToolCalls(calls, [echo], { maxConcurrency: 1 });
    calls.length = 0;
    expect((await pending).messages.map((m) => m.toolCallId)).toEqual(["c0", "c1", "c2"]);
  });

  it("an element replaced after the call does not run unchecked", async () => {
    const calls: unknown[] = [call("c0", "t")];
    const events = streamToolCalls(calls as ToolCall[], [echo]);
    calls[0] = { id: 42 };
    const all = await firstValueFrom(events.pipe(toArray()));
    expect(all.map((e) => e.toolCallId)).toEqual(["c0", "c0", "c0"]);
  });

  it("a hole is a TypeError naming its index, at call time", () => {
    const calls: ToolCall[] = [call("c0", "t")];
    calls[2] = call("c2", "t"); // index 1 stays a hole
    expect(() => streamToolCalls(calls, [echo])).toThrow(new TypeError("Expected tool call at index 1 to be an object, got undefined"));
  });
});

describe("streamed calls (issue 9)", () => {
  it("a malformed call is reported with its arrival index, even while others wait", async () => {
    const never = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => new Promise<never>(() => {}) });
    const input = new Observable<ToolCall>((s) => {
      s.next(call("c0", "t"));
      s.next(call("c1", "t"));
      s.next(call("c2", "t"));
      s.next({ id: "", name: "t", arguments: {} });
    });
    const failure = await firstValueFrom(streamToolCalls(input, [never], { maxConcurrency: 1 }).pipe(toArray())).catch((e: unknown) => e);
    expect(failure).toEqual(new TypeError('Expected `id` of tool call at index 3 to be a non-empty string, got ""'));
  });

  it("a Subscribable whose subscribe returns nothing tears down without throwing", async () => {
    const echo = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ok(1) });
    const input: Subscribable<ToolCall> = {
      subscribe(observer) {
        observer.next?.(call("c0", "t"));
        observer.complete?.();
        return undefined as never;
      },
    };
    const events: ToolEvent[] = await firstValueFrom(streamToolCalls(input, [echo]).pipe(toArray()));
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
    const stop = streamToolCalls({ subscribe: () => undefined as never }, [echo]).subscribe();
    expect(() => stop.unsubscribe()).not.toThrow();
  });
});

describe("a handler that rewrites ctx.toolCall (issue 9)", () => {
  it("cannot change the id and name its events and message answer; the policy still gets the call object", async () => {
    const original = call("c0", "t");
    let policyCall: unknown;
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (_args, ctx) => {
        Object.assign(ctx.toolCall, { id: "x", name: "y" });
        return error("failed");
      },
    });
    const options: RunOptions = {
      onToolError: (c) => {
        policyCall = c;
        return { continue: "fallback" };
      },
    };
    const events = await firstValueFrom(streamToolCalls([original], [tool], options).pipe(toArray()));
    expect(events.map((e) => [e.toolCallId, e.toolName])).toEqual([
      ["c0", "t"],
      ["c0", "t"],
      ["c0", "t"],
    ]);
    expect(policyCall).toBe(original);
  });
});
