import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, streamAgent, type AgentEvent, type HandlerResult } from "../../../src/index.js";
import { input, randomIdModel } from "./journal-fixtures.js";

describe("model_reply", () => {
  it("carries the whole reply, original ids and all, after the model is done and before its calls settle", async () => {
    let release: (() => void) | undefined;
    const slow = defineTool({
      name: "slow",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: () => new Promise<HandlerResult>((resolve) => (release = () => resolve(ok("late")))),
    });
    const { model } = randomIdModel([[{ tool: "slow", n: 1 }]]);
    const seen: string[] = [];
    let reply: Extract<AgentEvent, { type: "model_reply" }> | undefined;
    await new Promise<void>((resolve) =>
      streamAgent({ model, tools: [slow], messages: input }).subscribe((e) => {
        seen.push(e.type === "tool_event" ? e.event.type : e.type);
        if (e.type === "model_reply" && reply === undefined) {
          reply = e;
          queueMicrotask(() => release?.());
        }
        if (e.type === "agent_halted") resolve();
      }),
    );
    expect(seen.slice(0, 6)).toEqual([
      "turn_started",
      "text_delta",
      "tool_execution_started",
      "model_reply",
      "tool_execution_completed",
      "tool_result_encoded",
    ]);
    expect(reply?.message.content).toBe("turn 0");
    expect(reply?.finishReason).toBe("tool_calls");
    expect(reply?.message.toolCalls?.map((c) => c.name)).toEqual(["slow"]);
  });

  it("is not built for runAgent, and a reply without calls has no toolCalls", async () => {
    const { model } = randomIdModel([]);
    const events: AgentEvent[] = [];
    await new Promise<void>((resolve) => streamAgent({ model, tools: [], messages: input }).subscribe({ next: (e) => events.push(e), complete: resolve }));
    const reply = events.find((e) => e.type === "model_reply");
    expect(reply).toEqual({ type: "model_reply", turn: 0, message: { role: "assistant", content: "done after 0 turns" }, finishReason: "stop" });
    expect(events.map((e) => e.type)).toEqual(["turn_started", "text_delta", "model_reply", "turn_completed", "agent_halted"]);
  });
});
