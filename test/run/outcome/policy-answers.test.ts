/**
 * What the developer and the model read when an `onToolError` policy answers something it should
 * not: the exact `invalid_return` text and metadata for each kind of answer. Pinned where the
 * mutation run showed a change would pass unseen. The call halts, the policy is asked once, and
 * the sibling call is still answered.
 */
import { describe, expect, it, vi } from "vitest";
import { defineTool, runToolCalls, ToolError, type ToolErrorDecision } from "../../../src/index.js";
import { anyArgs, call, eventsOf } from "../../support/helpers.js";

const tools = [
  defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ({ type: "error", reason: "no such city" }) }),
  defineTool({ name: "fine", description: "", schema: anyArgs, handler: () => ({ type: "ok", value: "fine" }) }),
];

const EXPECTED = 'expected { continue: value } or "halt"';

/** A thenable that is a function: legal for Promises/A+, and still not a synchronous answer. */
function thenableFunction(): unknown {
  // biome-ignore lint/suspicious/noThenProperty: a thenable function is the case under test
  return Object.assign(function later() {}, { then: (resolve: (v: unknown) => void) => resolve({ continue: "late" }) });
}

describe("onToolError answering", () => {
  it.each([
    ["nothing (a policy that forgot to return)", () => undefined, `onToolError returned undefined for tool t; ${EXPECTED}`],
    ["null", () => null, `onToolError returned null for tool t; ${EXPECTED}: null`],
    [
      "a function with its own `continue`",
      () => Object.assign(() => "x", { continue: "fallback" }),
      `onToolError returned a function for tool t; ${EXPECTED}: a function`,
    ],
    [
      "an object whose `then` cannot be read",
      () => ({
        continue: 1,
        // biome-ignore lint/suspicious/noThenProperty: a then that cannot be read is the case under test
        get then() {
          throw new Error("then getter");
        },
      }),
      `onToolError returned an object that cannot be read for tool t; ${EXPECTED}: {"continue":1,"then":"[unreadable]"}`,
    ],
    [
      "an object whose `continue` cannot be read",
      () => ({
        get continue() {
          throw new Error("continue getter");
        },
      }),
      `onToolError returned an object whose \`continue\` cannot be read for tool t; ${EXPECTED}: {"continue":"[unreadable]"}`,
    ],
    [
      "a Proxy that cannot say whether `continue` is its own",
      () =>
        new Proxy(
          { continue: "fallback" },
          {
            getOwnPropertyDescriptor() {
              throw new Error("trap");
            },
          },
        ),
      `onToolError returned an object for tool t; ${EXPECTED}: [unreadable]`,
    ],
    ["a thenable function", thenableFunction, "onToolError returned a promise for tool t; the policy must answer synchronously: a function (later)"],
  ])("%s: halts that call with invalid_return saying so and what it was, its sibling answered", async (_, answer, message) => {
    const policy = vi.fn(() => answer() as ToolErrorDecision);
    const result = await runToolCalls([call("c1", "t"), call("c2", "fine")], tools, { onToolError: policy });
    expect(policy).toHaveBeenCalledTimes(1);
    expect(result).toEqual({
      messages: [
        { role: "tool", toolCallId: "c1", name: "t", content: JSON.stringify({ error: `invalid_return: ${message}` }), isError: true },
        { role: "tool", toolCallId: "c2", name: "fine", content: "fine", isError: false },
      ],
      halt: { haltedReason: "tool_error", haltToolCallId: "c1" },
      halts: [{ haltedReason: "tool_error", haltToolCallId: "c1" }],
    });
  });

  it("something else: the developer gets the answer as the cause and metadata.onToolErrorReturned", async () => {
    const answer = { keepGoing: true };
    const events = await eventsOf([call("c1", "t")], tools, { onToolError: () => answer as never });
    const term = (events[2] as { result: ToolError }).result;
    expect(term).toBeInstanceOf(ToolError);
    expect(term).toMatchObject({
      reason: "invalid_return",
      message: `onToolError returned an object for tool t; ${EXPECTED}`,
      toolName: "t",
      toolCallId: "c1",
      metadata: { onToolErrorReturned: true },
    });
    expect(term.cause).toBe(answer);
  });

  it('"halt" from the function: the call halts with the handler\'s own error as its result', async () => {
    const events = await eventsOf([call("c1", "t")], tools, { onToolError: () => "halt" });
    expect(events[2]).toEqual({
      type: "tool_halt",
      index: 0,
      toolCallId: "c1",
      toolName: "t",
      reason: "tool_error",
      result: "no such city",
      content: '{"error":"no such city"}',
      isError: true,
    });
  });
});
