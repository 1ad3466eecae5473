import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentTool, defineTool, ok, runAgent, type ModelEvent } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, haltedOf, text, toolCall, user } from "../../support/agent-helpers.js";
import { anyArgs } from "../../support/helpers.js";

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

describe("AgentResult.usage with subagents", () => {
  const subagent = (model: ReturnType<typeof scriptedModel>) =>
    agentTool({ name: "research", description: "", schema: z.object({}), agent: () => ({ model, tools: [echo], messages: [user("dig")] }) });
  const twoCalls = () =>
    scriptedModel([
      [toolCall("s1", "echo"), usage(40, 4), finish("tool_calls")],
      [text("found"), usage(50, 6, { cachedInputTokens: 10 }), finish("stop")],
    ]);
  const parentModel = () =>
    scriptedModel([
      [toolCall("p1", "research"), usage(100, 20), finish("tool_calls")],
      [text("Done."), usage(130, 5), finish("stop")],
    ]);

  it("adds a subagent's two model calls to the parent's usage, and breaks it down by source (runAgent and streamAgent)", async () => {
    const expected = {
      usage: { inputTokens: 320, outputTokens: 35, cachedInputTokens: 10 },
      usageBreakdown: [
        { source: "model", usage: { inputTokens: 230, outputTokens: 25 } },
        {
          source: "subagent",
          turn: 0,
          toolCallId: "p1",
          toolName: "research",
          usage: { inputTokens: 90, outputTokens: 10, cachedInputTokens: 10 },
          breakdown: [{ source: "model", usage: { inputTokens: 90, outputTokens: 10, cachedInputTokens: 10 } }],
        },
      ],
    };
    const result = await runAgent({ model: parentModel(), tools: [subagent(twoCalls())], messages: [user("go")] });
    expect(result).toMatchObject({ haltedReason: "completed", ...expected });
    const halted = await haltedOf({ model: parentModel(), tools: [subagent(twoCalls())], messages: [user("go")] });
    expect(halted).toMatchObject(expected);
  });

  it("counts a subagent's subagent once, inside its parent's share", async () => {
    const inner = subagent(twoCalls());
    const middle = agentTool({
      name: "delegate",
      description: "",
      schema: z.object({}),
      agent: () => ({
        model: scriptedModel([
          [toolCall("m1", "research"), usage(7, 1), finish("tool_calls")],
          [text("ok"), finish("stop")],
        ]),
        tools: [inner],
        messages: [user("delegate")],
      }),
    });
    const parent = scriptedModel([[toolCall("p1", "delegate"), finish("tool_calls")], [text("Done.")]]);
    const result = await runAgent({ model: parent, tools: [middle], messages: [user("go")] });
    expect(result.usage).toEqual({ inputTokens: 97, outputTokens: 11, cachedInputTokens: 10 });
    const [share] = result.usageBreakdown ?? [];
    // The parent's model reported nothing: its one source is the subagent, which narrows on `source`.
    expect(result.usageBreakdown).toHaveLength(1);
    if (share?.source !== "subagent") throw new Error(`expected a subagent share, got ${share?.source}`);
    expect(share.toolName).toBe("delegate");
    expect(share.breakdown.map((s) => (s.source === "subagent" ? `${s.source}:${s.toolName}` : s.source))).toEqual(["model", "subagent:research"]);
  });

  it("is absent when neither the model nor a subagent reported any", async () => {
    const quiet = scriptedModel([[text("found"), finish("stop")]]);
    const result = await runAgent({ model: scriptedModel([[toolCall("p1", "research")], [text("Done.")]]), tools: [subagent(quiet)], messages: [user("go")] });
    expect(result).not.toHaveProperty("usage");
    expect(result).not.toHaveProperty("usageBreakdown");
  });
});
