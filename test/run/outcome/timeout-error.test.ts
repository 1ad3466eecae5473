/**
 * A timeout's `ToolError` is built only when something reads it (issue 46: the error was most of
 * a timeout's cost). Whoever reads it must not tell: each test holds what a user sees against a
 * `ToolError` built eagerly, by hand, with the fields the contract gives a deadline's error, and
 * against the model's text written out.
 */
import { types } from "node:util";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  jsonEncoder,
  streamToolCalls,
  ToolError,
  type HandlerContext,
  type HandlerResult,
  type ToolControl,
  type ToolEvent,
} from "../../../src/index.js";
import type { RunOptions } from "../../../src/run/options/index.js";
import { anyArgs, call } from "../../support/helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

type Completed = Extract<ToolEvent, { type: "tool_execution_completed" }>;
type Encoded = Extract<ToolEvent, { type: "tool_result_encoded" }>;

const hang = () => new Promise<HandlerResult>(() => {});
const tool = (name: string, control?: ToolControl, handler: (a: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerResult> = hang) =>
  defineTool({ name, description: "", schema: anyArgs, handler, ...(control === undefined ? {} : { control }) });

/** Every event of `calls`, run on a manual clock until `until`. */
async function run(calls: ReturnType<typeof call>[], tools: ReturnType<typeof tool>[], options: RunOptions, until: number) {
  const scheduler = manualScheduler();
  const events: ToolEvent[] = [];
  const subscription = streamToolCalls(calls, tools, { scheduler, ...options }).subscribe((e: ToolEvent) => events.push(e));
  await scheduler.advance(until);
  subscription.unsubscribe();
  const completed = events.filter((e): e is Completed => e.type === "tool_execution_completed");
  const encoded = events.filter((e): e is Encoded => e.type === "tool_result_encoded");
  return { completed, encoded };
}

/** The deadline error as it was built before it became lazy: eagerly, with no stack. */
function eager(toolName: string, toolCallId: string, message: string, metadata: Record<string, unknown>): ToolError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ToolError("timeout", { message, toolName, toolCallId, metadata });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function expectSameError(actual: unknown, expected: ToolError): void {
  expect(actual).toBeInstanceOf(ToolError);
  expect(actual).toBeInstanceOf(Error);
  expect(types.isNativeError(actual)).toBe(true);
  const error = actual as ToolError;
  expect([error.name, error.message, error.reason, error.toolName, error.toolCallId]).toEqual([
    expected.name,
    expected.message,
    expected.reason,
    expected.toolName,
    expected.toolCallId,
  ]);
  expect(error.metadata).toEqual(expected.metadata);
  expect(String(error)).toBe(String(expected));
  expect(Object.keys(error)).toEqual(Object.keys(expected));
  expect(JSON.stringify(error)).toBe(JSON.stringify(expected));
  expect(jsonEncoder.encodeError(error)).toBe(jsonEncoder.encodeError(expected));
}

const plain = { value: expect.anything(), writable: true, enumerable: true, configurable: true };

describe("a deadline's timeout", () => {
  describe("when nothing has read its error yet", () => {
    it("serializes, spreads and compares as the eagerly built event, and the model reads the same text", async () => {
      const { completed, encoded } = await run([call("a", "t")], [tool("t")], { toolTimeout: 50 }, 100);
      const expected = eager("t", "a", "tool t timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false });
      const event = completed[0] as Completed;
      // JSON first: it must read the error as a plain field would be read, before anything else has.
      expect(JSON.stringify(event)).toBe(
        JSON.stringify({ type: "tool_execution_completed", index: 0, toolCallId: "a", toolName: "t", result: { type: "error", reason: expected } }),
      );
      expect(Object.keys(event.result)).toEqual(["type", "reason"]);
      // What holds the unbuilt error is no property of any kind, and the result is a plain object.
      expect(Reflect.ownKeys(event.result)).toEqual(["type", "reason"]);
      expect(Object.getPrototypeOf(event.result)).toBe(Object.prototype);
      expect(encoded.map((e) => [e.content, e.isError])).toEqual([['{"error":"timeout: tool t timed out after 50 ms"}', true]]);
      expectSameError((event.result as { reason: unknown }).reason, expected);
    });

    it("costs no closure per expiry: every unread timeout result shares one accessor pair", async () => {
      const { completed } = await run([call("a", "t"), call("b", "t")], [tool("t")], { toolTimeout: 50 }, 100);
      const [first, second] = completed.map((e) => Object.getOwnPropertyDescriptor(e.result, "reason"));
      expect(first?.get).toBeTypeOf("function");
      expect(second?.get).toBe(first?.get);
      expect(second?.set).toBe(first?.set);
    });

    it("gives every reader the same error, and leaves a plain data field once read", async () => {
      const { completed } = await run([call("a", "t")], [tool("t")], { toolTimeout: 50 }, 100);
      const result = (completed[0] as Completed).result as { reason: unknown };
      const expected = eager("t", "a", "tool t timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false });
      // Cloning reads it first here, as a worker's postMessage would.
      expect(structuredClone(result)).toEqual(structuredClone({ type: "error", reason: expected }));
      const spread = { ...result };
      expect(spread.reason).toBe(result.reason);
      expect(Object.getOwnPropertyDescriptor(result, "reason")).toEqual(plain);
    });

    it("takes a value assigned before any read, as a plain field would", async () => {
      const { completed } = await run([call("a", "t")], [tool("t")], { toolTimeout: 50 }, 100);
      const result = (completed[0] as Completed).result as { reason: unknown };
      result.reason = "replaced";
      expect(result.reason).toBe("replaced");
      expect(Object.getOwnPropertyDescriptor(result, "reason")).toEqual({ ...plain, value: "replaced" });
    });

    it("answers with the one error even once its result is frozen, and refuses an assignment then", async () => {
      const { completed } = await run([call("a", "t")], [tool("t")], { toolTimeout: 50 }, 100);
      const result = Object.freeze((completed[0] as Completed).result) as { reason: unknown };
      const first = result.reason;
      expect(result.reason).toBe(first);
      expectSameError(first, eager("t", "a", "tool t timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false }));
      expect(() => {
        result.reason = "replaced";
      }).toThrow(TypeError);
    });
  });

  it("is the reason of the handler's signal, read before the deadline or after it", async () => {
    const early: AbortSignal[] = [];
    const late: HandlerContext[] = [];
    const tools = [
      tool("watching", undefined, (_a, ctx) => {
        early.push(ctx.signal);
        return hang();
      }),
      tool("looking-later", undefined, (_a, ctx) => {
        late.push(ctx);
        return hang();
      }),
    ];
    const { completed } = await run([call("w", "watching"), call("l", "looking-later")], tools, { toolTimeout: 50 }, 100);
    const reasons = Object.fromEntries(completed.map((e) => [e.toolCallId, (e.result as { reason: unknown }).reason]));
    expect(early[0]?.aborted).toBe(true);
    expect(early[0]?.reason).toBe(reasons.w);
    const signal = (late[0] as HandlerContext).signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reasons.l);
    expectSameError(
      signal.reason,
      eager("looking-later", "l", "tool looking-later timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false }),
    );
  });

  it("names each call's own tool and deadline when many time out in one wake", async () => {
    const tools = [tool("t"), tool("u"), tool("slow", { timeout: 80 }), tool("quiet", { idleTimeout: 50 })];
    const calls = [call("t1", "t"), call("u1", "u"), call("t2", "t"), call("s1", "slow"), call("q1", "quiet"), call("u2", "u")];
    const { completed, encoded } = await run(calls, tools, { toolTimeout: 50 }, 100);
    const text = (message: string) => `{"error":${JSON.stringify(`timeout: ${message}`)}}`;
    expect(Object.fromEntries(encoded.map((e) => [e.toolCallId, e.content]))).toEqual({
      t1: text("tool t timed out after 50 ms"),
      u1: text("tool u timed out after 50 ms"),
      t2: text("tool t timed out after 50 ms"),
      q1: text("tool quiet timed out after 50 ms"),
      u2: text("tool u timed out after 50 ms"),
      s1: text("tool slow timed out after 80 ms"),
    });
    const byId = Object.fromEntries(completed.map((e) => [e.toolCallId, (e.result as { reason: unknown }).reason]));
    expectSameError(byId.u2, eager("u", "u2", "tool u timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false }));
    expectSameError(byId.s1, eager("slow", "s1", "tool slow timed out after 80 ms", { toolTimeout: 80, deadline: "toolTimeout", settled: false }));
  });

  it("names each run's own deadline when the same tool times out in one run after another", async () => {
    const texts: string[] = [];
    const runs = [
      { toolTimeout: 50 },
      { toolTimeout: 60 },
      { toolTimeout: 20, toolIdleTimeout: 30 },
      { toolTimeout: 60, toolIdleTimeout: 30 },
      { toolTimeout: 50 },
    ];
    for (const options of runs) {
      const { encoded } = await run([call("a", "t")], [tool("t")], options, 100);
      texts.push(...encoded.map((e) => e.content));
    }
    expect(texts).toEqual([
      '{"error":"timeout: tool t timed out after 50 ms"}',
      '{"error":"timeout: tool t timed out after 60 ms"}',
      '{"error":"timeout: tool t timed out after 20 ms"}',
      '{"error":"timeout: tool t timed out: no progress reported for 30 ms"}',
      '{"error":"timeout: tool t timed out after 50 ms"}',
    ]);
  });

  it("is the error a policy function and a custom encoder get, and the one in the event", async () => {
    const policed: unknown[] = [];
    const encodedErrors: unknown[] = [];
    const { completed, encoded } = await run(
      [call("a", "t")],
      [tool("t")],
      {
        toolTimeout: 50,
        onToolError: (_call, error) => {
          policed.push(error);
          return { continue: "fallback" };
        },
      },
      100,
    );
    expect(completed.map((e) => e.result)).toEqual([{ type: "ok", value: "fallback" }]);
    expect(encoded.map((e) => e.content)).toEqual(["fallback"]);
    expectSameError(policed[0], eager("t", "a", "tool t timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false }));

    const custom = {
      encode: (value: unknown) => JSON.stringify(value),
      encodeError: (error: unknown) => {
        encodedErrors.push(error);
        return "failed";
      },
    };
    const again = await run([call("a", "t")], [tool("t")], { toolTimeout: 50, toolResultEncoder: custom }, 100);
    expect(again.encoded.map((e) => e.content)).toEqual(["failed"]);
    expect(encodedErrors[0]).toBe(((again.completed[0] as Completed).result as { reason: unknown }).reason);
    expectSameError(encodedErrors[0], eager("t", "a", "tool t timed out after 50 ms", { toolTimeout: 50, deadline: "toolTimeout", settled: false }));
  });
});
