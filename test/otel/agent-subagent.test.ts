import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentTool } from "../../src/index.js";
import { scriptedModel } from "../../src/testing/index.js";
import { type otelHarness, parentId } from "../support/otel-harness.js";
import { must } from "../support/must.js";
import { id, setup, toolCall, user, weather } from "./agent-fixtures.js";

describe("telemetry() and agentTool subagents", () => {
  const subagentOf = (model: ReturnType<typeof scriptedModel>) =>
    agentTool({
      name: "research",
      description: "Research a city",
      schema: z.object({ city: z.string() }),
      agent: ({ city }) => ({ model, tools: [weather], messages: [{ role: "user", content: `Research ${city}` }] }),
    });
  const subModel = () =>
    scriptedModel([
      [toolCall("s1", "Oslo"), { type: "usage", usage: { inputTokens: 40, outputTokens: 4 } }, { type: "finish", reason: "tool_calls" }],
      [
        { type: "text_delta", text: "Cold." },
        { type: "usage", usage: { inputTokens: 50, outputTokens: 6 } },
        { type: "finish", reason: "stop" },
      ],
    ]);
  const parentModel = () =>
    scriptedModel([
      [
        { type: "tool_call", call: { id: "p1", name: "research", arguments: { city: "Oslo" } } },
        { type: "finish", reason: "tool_calls" },
      ],
      [
        { type: "text_delta", text: "Cold in Oslo." },
        { type: "finish", reason: "stop" },
      ],
    ]);

  /** The parent's `execute_tool research` span, and the spans of the subagent's run under it. */
  function subagentSpans(otel: ReturnType<typeof otelHarness>) {
    const call = otel.span("execute_tool research");
    const run = otel.spans().filter((s) => s.name === "invoke_agent travel" && parentId(s) === id(call));
    expect(run).toHaveLength(1);
    const turns = otel.spans().filter((s) => s.name === "turn" && parentId(s) === id(must(run[0])));
    const under = (name: string) => otel.spans().filter((s) => s.name === name && turns.some((t) => parentId(s) === id(t)));
    return { call, turns, chats: under("chat gpt-4.1"), tools: under("execute_tool weather") };
  }

  it("nests a subagent's two model calls and its tool call under the parent's execute_tool span (runAgent)", async () => {
    const { otel, traced } = setup();
    const result = await otel.withParent(() => traced.runAgent({ model: parentModel(), tools: [subagentOf(subModel())], messages: user }));
    expect(result.haltedReason).toBe("completed");

    const { turns, chats, tools } = subagentSpans(otel);
    expect(turns).toHaveLength(2);
    expect(chats.map((c) => [c.attributes["gen_ai.usage.input_tokens"], c.attributes["gen_ai.response.finish_reasons"]])).toEqual([
      [40, ["tool_calls"]],
      [50, ["stop"]],
    ]);
    expect(tools.map((t) => t.attributes["gen_ai.tool.call.id"])).toEqual(["s1"]);
    // The parent's own model calls stay under the parent's turns: four chat spans in all.
    expect(otel.spans().filter((s) => s.name === "chat gpt-4.1")).toHaveLength(4);
    expect(result.usage).toEqual({ inputTokens: 90, outputTokens: 10 });
    expect(otel.openSpans()).toBe(0);
  });

  it("does the same for a subagent called through the traced batch runner, and streams the subagent's events as untraced", async () => {
    const { otel, traced } = setup();
    const { messages } = await otel.withParent(() =>
      traced.runToolCalls([{ id: "p1", name: "research", arguments: { city: "Oslo" } }], [subagentOf(subModel())]),
    );
    expect(messages[0]?.content).toBe("Cold.");
    const { chats, tools } = subagentSpans(otel);
    expect(chats).toHaveLength(2);
    expect(tools).toHaveLength(1);

    const events = await firstValueFrom(traced.streamAgent({ model: parentModel(), tools: [subagentOf(subModel())], messages: user }).pipe(toArray()));
    const nested = events.flatMap((e) => (e.type === "subagent_event" ? [e.event.type] : []));
    expect(nested.filter((t) => t === "turn_started")).toHaveLength(2);
    expect(nested.at(-1)).toBe("agent_halted");
  });
});
