import { Observable, firstValueFrom, toArray, type Subscribable } from "rxjs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
  type ToolResultEncoder,
} from "../../src/index.js";
import type { RunOptions } from "../../src/run/options/run-options.js";
import { anyArgs, call, contextFor, flushMicrotasks } from "../support/helpers.js";
import { must } from "../support/must.js";

/** An Error whose `message` getter throws. */
function errorWithThrowingMessage(): Error {
  const e = new Error("hidden");
  Object.defineProperty(e, "message", {
    get() {
      throw new Error("message getter");
    },
  });
  return e;
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** A Proxy every one of whose traps throws. */
function trapsThrow(): object {
  const trap = () => {
    throw new Error("trap");
  };
  return new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
}

const hostile: [string, () => unknown][] = [
  ["an Error whose message getter throws", errorWithThrowingMessage],
  ["a revoked Proxy", revokedProxy],
  ["a Proxy whose traps throw", trapsThrow],
];

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

/** A tool named `t` answered by `handler`, beside a well-behaved sibling `ok`. */
function tools(handler: () => unknown) {
  return [
    defineTool({ name: "t", description: "", schema: anyArgs, handler: handler as () => HandlerResult }),
    defineTool({ name: "fine", description: "", schema: anyArgs, handler: () => ok("fine") }),
  ];
}
const batch = [call("c0", "t"), call("c1", "fine")];

async function expectAnswered(result: Promise<{ messages: { toolCallId: string; content: string; isError: boolean }[] }>) {
  const { messages } = await result;
  await flushMicrotasks();
  expect(messages.map((m) => m.toolCallId)).toEqual(["c0", "c1"]);
  expect(messages[0]?.isError).toBe(true);
  expect(messages[1]).toMatchObject({ content: "fine", isError: false });
  expect(unhandled).toEqual([]);
  return messages;
}

describe("hostile values from user code (issue 9)", () => {
  describe.each(hostile)("%s", (_, make) => {
    it("thrown by a sync handler: that call answers handler_raised, its sibling keeps its message", async () => {
      const messages = await expectAnswered(
        runToolCalls(
          batch,
          tools(() => {
            throw make();
          }),
        ),
      );
      expect(JSON.parse(messages[0]?.content ?? "").error).toMatch(/handler_raised/);
    });

    it("rejected by an async handler: the batch still settles, with no unhandled rejection", async () => {
      await expectAnswered(
        runToolCalls(
          batch,
          tools(() => Promise.reject(make())),
        ),
      );
    });

    it("returned as error(value): the policy and encoder still answer", async () => {
      await expectAnswered(
        runToolCalls(
          batch,
          tools(() => error(make())),
        ),
      );
    });

    it("thrown by an encoder whose encodeError throws too: the fallback text answers", async () => {
      const encoder: ToolResultEncoder = {
        encode() {
          throw make();
        },
        encodeError() {
          throw make();
        },
      };
      const both = await runToolCalls(
        [call("c0", "t"), call("c1", "t")],
        tools(() => ok(1)),
        { toolResultEncoder: encoder },
      );
      await flushMicrotasks();
      expect(unhandled).toEqual([]);
      expect(both.messages.map((m) => JSON.parse(m.content).error)).toEqual([
        expect.stringMatching(/^tool error \(t\): encoding_failed/),
        expect.stringMatching(/^tool error \(t\): encoding_failed/),
      ]);
    });

    it("answered by a policy: that call halts with invalid_return", async () => {
      const result = await runToolCalls(
        batch,
        tools(() => error("x")),
        { onToolError: () => make() as never },
      );
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c0" });
      expect(JSON.parse(result.messages[0]?.content ?? "").error).toMatch(/invalid_return/);
      expect(result.messages[1]?.content).toBe("fine");
    });

    it("returned by defaultExecutor's handler: converted to invalid_return, never thrown", () => {
      const tool = must(tools(make)[0]);
      const result = defaultExecutor.execute(tool, {}, contextFor(call("c0", "t")));
      expect(result).toMatchObject({ type: "error", reason: { reason: "invalid_return" } });
    });

    it("thrown by defaultExecutor's handler: converted to handler_raised, never thrown", () => {
      const tool = must(
        tools(() => {
          throw make();
        })[0],
      );
      const result = defaultExecutor.execute(tool, {}, contextFor(call("c0", "t")));
      expect(result).toMatchObject({ type: "error", reason: { reason: "handler_raised" } });
    });

    it("rendered by jsonEncoder.encodeError: still says something, without throwing", () => {
      const text = (JSON.parse(jsonEncoder.encodeError(make())) as { error: string }).error;
      expect(text.length).toBeGreaterThan(0);
    });
  });

  describe("a policy answer that throws when read", () => {
    const answers: [string, () => unknown][] = [
      [
        "a `continue` getter that throws",
        () => ({
          get continue() {
            throw new Error("getter");
          },
        }),
      ],
      [
        "a `then` getter that throws",
        () => ({
          continue: 1,
          // biome-ignore lint/suspicious/noThenProperty: a then that cannot be read is the case under test
          get then() {
            throw new Error("getter");
          },
        }),
      ],
      ["a Proxy whose traps throw", trapsThrow],
    ];
    it.each(answers)("%s halts that call with invalid_return, its sibling answered", async (_, answer) => {
      const result = await runToolCalls(
        batch,
        tools(() => error("x")),
        { onToolError: () => answer() as never },
      );
      expect(result.halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c0" });
      expect(JSON.parse(result.messages[0]?.content ?? "").error).toMatch(/^invalid_return: onToolError returned an object/);
      expect(result.messages[1]?.content).toBe("fine");
    });
  });

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
