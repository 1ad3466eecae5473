/**
 * An option no option has is refused at call time: a typo would otherwise run with a default
 * (`{ timeout: 5_000 }` with the 30 s deadline) and say nothing.
 */
import { describe, expect, it, vi } from "vitest";
import { defineTool, ok, runAgent, runToolCalls, streamAgent, streamToolCalls } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { anyArgs, call } from "../../support/helpers.js";

const handler = vi.fn(() => ok("ran"));
const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler });

describe("an unknown option", () => {
  it.each([
    ["timeout", "toolTimeout"],
    ["concurrency", "maxConcurrency"],
    ["toolTimout", "toolTimeout"],
    ["executor", "toolExecutor"],
    ["onCallreport", "onCallReport"],
  ])("`%s` is refused, naming `%s`, before any call runs", async (key, meant) => {
    handler.mockClear();
    const options = { [key]: 5_000 } as never;
    const message = new RegExp(`^Unknown option \`${key}\` \\(did you mean \`${meant}\`\\?\\); the options are \`engine\`, `);
    expect(() => streamToolCalls([call("c1", "t")], [tool], options)).toThrow(message);
    await expect(runToolCalls([call("c1", "t")], [tool], options)).rejects.toThrow(message);
    expect(handler).not.toHaveBeenCalled();
  });

  it("without a near option, lists them all", () => {
    expect(() => streamToolCalls([call("c1", "t")], [tool], { colour: "blue" } as never)).toThrow(
      "Unknown option `colour`; the options are `engine`, `toolExecutor`, `toolExecutors`, `toolResultEncoder`, `onToolError`, `toolTimeout`, `maxConcurrency`, `context`, `sessionId`, `requestId`, `signal`, `validateArguments`, `scheduler`, `toolIdleTimeout`, `onCallReport`, `cancel`, `retry`, `settleGrace`, `onUnknownTool`",
    );
  });

  it("every documented option is accepted", async () => {
    const { messages } = await runToolCalls([call("c1", "t")], [tool], {
      engine: {},
      toolTimeout: 1_000,
      maxConcurrency: 2,
      context: {},
      sessionId: "s",
      requestId: "r",
      signal: new AbortController().signal,
      validateArguments: true,
      toolIdleTimeout: 1_000,
      onCallReport: () => {},
      settleGrace: 10,
      onUnknownTool: "answer",
      onToolError: "continue",
    });
    expect(messages.map((m) => m.content)).toEqual(["ran"]);
  });

  it("the agent loop accepts its own keys with the run options, and refuses a typo of either", async () => {
    const model = scriptedModel([
      [
        { type: "text_delta", text: "hi" },
        { type: "finish", reason: "stop" },
      ],
    ]);
    const result = await runAgent({ model, tools: [tool], messages: [{ role: "user", content: "go" }], maxTurns: 2, mode: "auto", toolTimeout: 1_000 });
    expect(result.haltedReason).toBeDefined();
    expect(() => streamAgent({ model, tools: [tool], messages: [], maxTurn: 2 } as never)).toThrow(/^Unknown option `maxTurn` \(did you mean `maxTurns`\?\)/);
    expect(() => streamAgent({ model, tools: [tool], messages: [], timeout: 5 } as never)).toThrow(
      /^Unknown option `timeout` \(did you mean `toolTimeout`\?\)/,
    );
  });
});
