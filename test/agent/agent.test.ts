import { of } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, runAgent, streamAgent, toolResolver, type HandlerResult, type ModelEvent, type ModelRequest } from "../../src/index.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";
import type { Message } from "../../src/tool/message.js";
import { scriptedModel } from "../../src/testing/index.js";
import { agentEvents, callOf, finish, haltedOf, shapeOf, text, toolCall, user } from "../support/agent-helpers.js";
import { anyArgs, deferred } from "../support/helpers.js";

const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });
const question = [user("hi")];

describe("streamAgent", () => {
  it("is cold: no model request and no tool before subscribe, and each subscription is its own run", async () => {
    const model = vi.fn((_r: ModelRequest) => of<ModelEvent[]>(text("hello"), finish("stop")));
    const events$ = streamAgent({ model, tools: [echo], messages: question });
    expect(model).not.toHaveBeenCalled();
    const first = await haltedOf({ model, tools: [echo], messages: question });
    events$.subscribe();
    events$.subscribe();
    expect(model).toHaveBeenCalledTimes(3);
    expect(first.haltedReason).toBe("completed");
  });

  it("tells a turn as it happens, and agent_halted comes last with the whole conversation", async () => {
    const model = scriptedModel([
      [text("Let me "), text("check."), toolCall("c1", "echo", { text: "a" }), finish("tool_calls")],
      [text("Done."), finish("stop")],
    ]);
    const events = await agentEvents({ model, tools: [echo], messages: question });
    expect(shapeOf(events)).toEqual([
      "0:turn_started",
      "0:text_delta",
      "0:text_delta",
      "0:tool_execution_started(c1)",
      "0:tool_execution_completed(c1)",
      "0:tool_result_encoded(c1)",
      "0:model_reply",
      "0:turn_completed",
      "1:turn_started",
      "1:text_delta",
      "1:model_reply",
      "1:turn_completed",
      "agent_halted(completed)",
    ]);
    const turn0: Message[] = [
      { role: "assistant", content: "Let me check.", toolCalls: [callOf("c1", "echo", { text: "a" })] },
      { role: "tool", toolCallId: "c1", name: "echo", content: "a", isError: false },
    ];
    expect(events[6]).toEqual({ type: "model_reply", turn: 0, message: turn0[0], finishReason: "tool_calls" });
    expect(events[7]).toEqual({ type: "turn_completed", turn: 0, messages: turn0 });
    expect(events[11]).toEqual({ type: "turn_completed", turn: 1, messages: [{ role: "assistant", content: "Done." }] });
    expect(events[12]).toEqual({
      type: "agent_halted",
      haltedReason: "completed",
      metadata: { finishReason: "stop" },
      messages: [...question, ...turn0, { role: "assistant", content: "Done." }],
    });
    expect(events[3]).toEqual({
      type: "tool_event",
      turn: 0,
      event: { type: "tool_execution_started", index: 0, toolCallId: "c1", toolName: "echo", arguments: { text: "a" } },
    });
  });

  it("asks the model with the conversation so far, the tools, the turn number and a signal", async () => {
    const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [finish("stop")]]);
    const result = await runAgent({ model, tools: [echo], messages: question });
    expect(model.requests.map((r) => r.turn)).toEqual([0, 1]);
    expect(model.requests[0]?.messages).toEqual(question);
    expect(model.requests[1]?.messages).toEqual(result.messages.slice(0, 3));
    expect(model.requests[0]?.tools).toEqual([echo]);
    expect(model.requests[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(model.requests[0]?.signal.aborted).toBe(false);
  });

  it("offers a resolver's tools and answers through it", async () => {
    const resolver = toolResolver([echo]);
    const model = scriptedModel([[toolCall("c1", "echo", { text: "via resolver" })], [finish("stop")]]);
    const result = await runAgent({ model, tools: resolver, messages: question });
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(["echo"]);
    expect(result.messages[2]).toEqual({ role: "tool", toolCallId: "c1", name: "echo", content: "via resolver", isError: false });
  });

  it("accepts any ObservableInput as the model's answer: an async generator works", async () => {
    async function* model(): AsyncGenerator<ModelEvent> {
      yield text("hi");
      yield finish("stop");
    }
    const result = await runAgent({ model, tools: [], messages: question });
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: "hi" });
  });
});

describe("a turn", () => {
  it("starts each tool call as soon as the model emits it, while the model still streams", () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    const timeline: string[] = [];
    scheduler.run(() => {
      const model = scriptedModel([
        [toolCall("c1", "echo", { text: "a" }), { wait: 10 }, text("still talking"), { wait: 10 }, finish("tool_calls")],
        [finish("stop")],
      ]);
      streamAgent({ model, tools: [echo], messages: question }).subscribe((e) => {
        timeline.push(`${scheduler.now()} ${shapeOf([e])[0]}`);
      });
    });
    expect(timeline).toEqual([
      "0 0:turn_started",
      "0 0:tool_execution_started(c1)",
      "0 0:tool_execution_completed(c1)",
      "0 0:tool_result_encoded(c1)",
      "10 0:text_delta",
      "20 0:model_reply",
      "20 0:turn_completed",
      "20 1:turn_started",
      "20 1:model_reply",
      "20 1:turn_completed",
      "20 agent_halted(completed)",
    ]);
  });

  it("keeps the model's order for the assistant's calls and the tool messages, whatever order the calls finish in", async () => {
    const gate = deferred<HandlerResult>();
    const slow = defineTool({ name: "slow", description: "", schema: anyArgs, handler: () => gate.promise });
    const model = scriptedModel([[toolCall("a", "slow"), toolCall("b", "echo", { text: "fast" })], [finish("stop")]]);
    const done = runAgent({ model, tools: [slow, echo], messages: question });
    setTimeout(() => gate.resolve(ok("slow")), 5);
    const { messages } = await done;
    expect(messages.slice(1, 4)).toEqual([
      { role: "assistant", content: "", toolCalls: [callOf("a", "slow"), callOf("b", "echo", { text: "fast" })] },
      { role: "tool", toolCallId: "a", name: "slow", content: "slow", isError: false },
      { role: "tool", toolCallId: "b", name: "echo", content: "fast", isError: false },
    ]);
  });

  it("answers an unknown tool with not_found, so the model can correct itself", async () => {
    const model = scriptedModel([[toolCall("c1", "ecko", { text: "a" })], [toolCall("c2", "echo", { text: "a" })], [finish("stop")]]);
    const result = await runAgent({ model, tools: [echo], messages: question });
    expect(result.haltedReason).toBe("completed");
    expect(result.messages[2]).toMatchObject({ role: "tool", toolCallId: "c1", isError: true });
    expect((result.messages[2] as { content: string }).content).toMatch(/not_found/);
  });

  it("applies every RunOptions option to every turn's calls: context, policy, concurrency, deadline", async () => {
    const seen: HandlerContext[] = [];
    let running = 0;
    let peak = 0;
    const probe = defineTool({
      name: "probe",
      description: "",
      schema: anyArgs,
      handler: async (_args, ctx) => {
        seen.push(ctx);
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        return { type: "error", reason: "nope" };
      },
    });
    const model = scriptedModel([[toolCall("a", "probe")], [toolCall("b", "probe"), toolCall("c", "probe")], [finish("stop")]]);
    const result = await runAgent({
      model,
      tools: [probe],
      messages: question,
      context: { tenant: "t1" },
      sessionId: "s1",
      maxConcurrency: 1,
      onToolError: (_call, error) => ({ continue: `recovered from ${String(error)}` }),
    });
    expect(seen.map((c) => [c.context, c.sessionId])).toEqual([
      [{ tenant: "t1" }, "s1"],
      [{ tenant: "t1" }, "s1"],
      [{ tenant: "t1" }, "s1"],
    ]);
    expect(peak).toBe(1);
    expect(result.messages.filter((m) => m.role === "tool").map((m) => (m as { content: string }).content)).toEqual([
      "recovered from nope",
      "recovered from nope",
      "recovered from nope",
    ]);
  });

  it("bounds a later turn's handler by toolTimeout, in virtual time", () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    const tails: string[] = [];
    scheduler.run(() => {
      const hang = defineTool({ name: "hang", description: "", schema: anyArgs, handler: () => new Promise<HandlerResult>(() => {}) });
      const model = scriptedModel([[toolCall("a", "echo", { text: "x" })], [toolCall("b", "hang")], [finish("stop")]]);
      streamAgent({ model, tools: [echo, hang], messages: question, toolTimeout: 50, scheduler }).subscribe((e) => {
        if (e.type === "tool_event" && e.event.type === "tool_result_encoded") tails.push(`${scheduler.now()} ${e.event.content}`);
      });
    });
    expect(tails).toEqual(["0 x", '50 {"error":"timeout: tool hang timed out after 50 ms"}']);
  });

  it("treats a model that completes without finish as tool_calls when it asked for tools, and stop otherwise", async () => {
    const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [text("bye")]]);
    const result = await runAgent({ model, tools: [echo], messages: question });
    expect(model.requests).toHaveLength(2);
    expect(result).toMatchObject({ haltedReason: "completed", metadata: { finishReason: "stop" } });
  });

  it("stops listening at finish: nothing the model sends after it counts", async () => {
    const model = () => of<ModelEvent[]>(text("a"), finish("stop"), text("late"), toolCall("c9", "echo", { text: "late" }));
    const result = await runAgent({ model, tools: [echo], messages: question });
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: "a" });
  });

  it("numbers turns from 0 in each run, a resumed run included", async () => {
    const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [finish("stop")], [finish("stop")]]);
    const first = await agentEvents({ model, tools: [echo], messages: question });
    const second = await agentEvents({ model, tools: [echo], messages: [...(first.at(-1) as { messages: readonly Message[] }).messages, user("again")] });
    expect(first.filter((e) => e.type === "turn_started").map((e) => (e as { turn: number }).turn)).toEqual([0, 1]);
    expect(second.filter((e) => e.type === "turn_started").map((e) => (e as { turn: number }).turn)).toEqual([0]);
  });
});
