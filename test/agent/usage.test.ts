import { describe, expect, it } from "vitest";
import { defineTool, ok, runAgent, type ModelEvent } from "../../src/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { finish, text, toolCall, user } from "../support/agent-helpers.js";
import { anyArgs } from "../support/helpers.js";

const echo = defineTool({ name: "echo", description: "", schema: anyArgs, handler: () => ok("hi") });
const usage = (inputTokens: number, outputTokens: number, extra: object = {}): ModelEvent => ({
  type: "usage",
  usage: { inputTokens, outputTokens, ...extra },
});

describe("AgentResult.usage", () => {
  it("sums what every model call of the run reported", async () => {
    const model = scriptedModel([
      [toolCall("c1", "echo"), usage(100, 20, { cachedInputTokens: 80 }), finish("tool_calls")],
      [text("Done."), usage(150, 5, { reasoningTokens: 2 }), finish("stop")],
    ]);
    const result = await runAgent({ model, tools: [echo], messages: [user("hi")] });
    expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 25, cachedInputTokens: 80, reasoningTokens: 2 });
  });

  it("counts a failed call's tokens too, and is absent when the model reported none", async () => {
    const failed = await runAgent({ model: scriptedModel([[usage(10, 1), finish("error", new Error("cut"))]]), tools: [], messages: [user("hi")] });
    expect(failed).toMatchObject({ haltedReason: "error", usage: { inputTokens: 10, outputTokens: 1 } });
    const silent = await runAgent({ model: scriptedModel([[text("hi"), finish("stop")]]), tools: [], messages: [user("hi")] });
    expect(silent).not.toHaveProperty("usage");
  });

  it("a usage event with counts that are not numbers ends the run with a ModelEventError", async () => {
    const bad = { type: "usage", usage: { inputTokens: "many", outputTokens: 1 } } as unknown as ModelEvent;
    const result = await runAgent({ model: scriptedModel([[bad]]), tools: [], messages: [user("hi")] });
    expect(result).toMatchObject({ haltedReason: "error", metadata: { error: { name: "ModelEventError" } } });
  });
});
