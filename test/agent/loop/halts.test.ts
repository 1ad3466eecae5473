import { of, throwError } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { askUser, defineTool, halt, ok, runAgent, type HandlerResult, type ModelEvent, type TurnResult } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { agentEvents, callOf, finish, haltedOf, text, toolCall, user } from "../../support/agent-helpers.js";
import { anyArgs, deferred, hangingTool } from "../../support/helpers.js";

const question = [user("hi")];
const echo = defineTool({ name: "echo", description: "", schema: z.object({ text: z.string() }), handler: ({ text }) => ok(text) });
const ask = defineTool({ name: "ask", description: "", schema: z.object({ q: z.string() }), handler: ({ q }) => askUser(q, { choices: ["yes", "no"] }) });
const stop = defineTool({ name: "stop", description: "", schema: anyArgs, handler: () => halt("budget", { eur: 3 }) });
const fail = defineTool({ name: "fail", description: "", schema: anyArgs, handler: () => ({ type: "error", reason: "down" }) });
const manualTool = defineTool({ name: "pay", description: "", schema: anyArgs, manual: true, handler: vi.fn(() => ok("paid")) });
const tools = [echo, ask, stop, fail, manualTool];

describe("after each turn, the first reason that applies ends the loop", () => {
  describe("1. a call asked the user", () => {
    it("ends with ask_user, its metadata, and the question appended as an assistant message", async () => {
      const model = scriptedModel([[toolCall("c1", "echo", { text: "a" }), toolCall("c2", "ask", { q: "Go?" })]]);
      const result = await runAgent({ model, tools, messages: question });
      expect(result.haltedReason).toBe("ask_user");
      const opts = { choices: ["yes", "no"] };
      expect(result.metadata).toEqual({
        pendingQuestion: "Go?",
        pendingToolCallId: "c2",
        askUserOpts: opts,
        pendingQuestions: [{ toolCallId: "c2", question: "Go?", opts }],
      });
      expect(result.messages.slice(2)).toEqual([
        { role: "tool", toolCallId: "c1", name: "echo", content: "a", isError: false },
        { role: "tool", toolCallId: "c2", name: "ask", content: "<awaiting user response>", isError: false },
        { role: "assistant", content: "Go?", metadata: { askUser: true, toolCallId: "c2", askUserOpts: opts } },
      ]);
    });
  });

  describe("1–3. halting calls", () => {
    it("the lowest position wins, as in runToolCalls, even when it halted last", async () => {
      const gate = deferred<HandlerResult>();
      const slowStop = defineTool({ name: "slow_stop", description: "", schema: anyArgs, handler: () => gate.promise });
      const model = scriptedModel([[toolCall("c1", "slow_stop"), toolCall("c2", "ask", { q: "Go?" })]]);
      const done = runAgent({ model, tools: [...tools, slowStop], messages: question });
      setTimeout(() => gate.resolve(halt("budget", 1)), 5);
      const result = await done;
      // The question still reaches the host: listed with the winning halt, and put to the user.
      expect(result).toMatchObject({
        haltedReason: "budget",
        metadata: { haltToolCallId: "c1", haltResult: 1, pendingQuestions: [{ toolCallId: "c2", question: "Go?" }] },
      });
      expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: "Go?", metadata: { askUser: true, toolCallId: "c2" } });
    });

    it("2. the policy halted: tool_error with haltToolCallId, and onToolErrorException when the policy threw", async () => {
      const byHalt = await runAgent({ model: scriptedModel([[toolCall("c1", "fail")]]), tools, messages: question, onToolError: "halt" });
      expect(byHalt).toMatchObject({ haltedReason: "tool_error", metadata: { haltToolCallId: "c1" } });
      const boom = new Error("policy bug");
      const byThrow = await runAgent({
        model: scriptedModel([[toolCall("c1", "fail")]]),
        tools,
        messages: question,
        onToolError: () => {
          throw boom;
        },
      });
      expect(byThrow.metadata).toEqual({ haltToolCallId: "c1", onToolErrorException: boom });
    });

    it("3. a handler halted: its own reason, with haltToolCallId and haltResult", async () => {
      const result = await runAgent({ model: scriptedModel([[toolCall("c1", "stop")]]), tools, messages: question });
      expect(result.haltedReason).toBe("budget");
      expect(result.metadata).toEqual({ haltToolCallId: "c1", haltResult: { eur: 3 } });
    });

    it("a halt beats manual calls pending in the same turn", async () => {
      const result = await runAgent({ model: scriptedModel([[toolCall("c1", "pay"), toolCall("c2", "stop")]]), tools, messages: question });
      expect(result.haltedReason).toBe("budget");
    });
  });

  describe("4. manual calls", () => {
    it("does not run a manual tool: it hands the calls over with manual_tool_calls", async () => {
      const model = scriptedModel([[toolCall("c1", "echo", { text: "a" }), toolCall("c2", "pay", { eur: 5 }), finish("tool_calls")]]);
      const result = await runAgent({ model, tools, messages: question });
      expect(manualTool.handler).not.toHaveBeenCalled();
      expect(result).toMatchObject({
        haltedReason: "manual_tool_calls",
        metadata: { manualTurnIndex: 0, manualToolCalls: [callOf("c2", "pay", { eur: 5 })] },
      });
      // The assistant message keeps the manual call; only the call that ran is answered.
      expect(result.messages.slice(1)).toEqual([
        { role: "assistant", content: "", toolCalls: [callOf("c1", "echo", { text: "a" }), callOf("c2", "pay", { eur: 5 })] },
        { role: "tool", toolCallId: "c1", name: "echo", content: "a", isError: false },
      ]);
    });

    it('under mode "manual", runs no tool at all and hands over every call in the model\'s order', async () => {
      const handler = vi.fn(() => ok("ran"));
      const auto = defineTool({ name: "auto", description: "", schema: anyArgs, handler });
      const model = scriptedModel([[toolCall("c1", "auto"), toolCall("c2", "echo", { text: "b" })]]);
      const events = await agentEvents({ model, tools: [auto, echo], messages: question, mode: "manual" });
      expect(handler).not.toHaveBeenCalled();
      expect(events.some((e) => e.type === "tool_event")).toBe(false);
      expect(events.at(-1)).toMatchObject({
        haltedReason: "manual_tool_calls",
        metadata: { manualTurnIndex: 0, manualToolCalls: [callOf("c1", "auto"), callOf("c2", "echo", { text: "b" })] },
      });
    });

    it('under mode "manual", a turn without calls completes', async () => {
      const result = await runAgent({ model: scriptedModel([[text("hi")]]), tools, messages: question, mode: "manual" });
      expect(result.haltedReason).toBe("completed");
    });
  });

  describe("5. the model asked for no tool", () => {
    it.each(["stop", "length", "content_filter"] as const)("finish %s: completed with the finish reason", async (reason) => {
      const result = await runAgent({ model: scriptedModel([[text("bye"), finish(reason)]]), tools, messages: question });
      expect(result).toEqual({
        haltedReason: "completed",
        metadata: { finishReason: reason },
        messages: [...question, { role: "assistant", content: "bye" }],
      });
    });

    it("completed comes before haltWhen: haltWhen is not asked about a completed turn", async () => {
      const haltWhen = vi.fn(() => true);
      const result = await runAgent({ model: scriptedModel([[finish("stop")]]), tools, messages: question, haltWhen });
      expect(result.haltedReason).toBe("completed");
      expect(haltWhen).not.toHaveBeenCalled();
    });
  });

  describe("6. the model failed", () => {
    it("finish error: error with the model's error; running handlers are aborted and the turn adds nothing", async () => {
      const signals: AbortSignal[] = [];
      const hang = hangingTool(signals);
      const failure = new Error("overloaded");
      const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [toolCall("c2", "hang"), { wait: 5 }, finish("error", failure)]]);
      const result = await runAgent({ model, tools: [echo, hang], messages: question });
      expect(result.haltedReason).toBe("error");
      expect(result.metadata).toEqual({ error: failure });
      expect(result.messages).toHaveLength(3); // the question and turn 0 only
      expect(signals[0]?.aborted).toBe(true);
      expect(signals[0]?.reason).toBe(failure);
      expect(model.requests[1]?.signal.aborted).toBe(true);
    });

    it("a model Observable that errors: error with what it threw", async () => {
      const failure = new Error("socket hang up");
      const result = await runAgent({ model: () => throwError(() => failure), tools, messages: question });
      expect(result).toEqual({ haltedReason: "error", metadata: { error: failure }, messages: question });
    });

    it("a model function that throws, or returns no ObservableInput: error", async () => {
      const failure = new Error("no key");
      const thrown = await runAgent({
        model: () => {
          throw failure;
        },
        tools,
        messages: question,
      });
      expect(thrown.metadata).toEqual({ error: failure });
      const nonsense = await runAgent({ model: (() => 42) as never, tools, messages: question });
      expect(nonsense).toMatchObject({ haltedReason: "error", metadata: { error: expect.any(TypeError) } });
    });
  });

  describe("7. haltWhen", () => {
    it("ends with halt_when and the turn when it answers true; it sees the turn's assistant and tool messages", async () => {
      const seen: TurnResult[] = [];
      const model = scriptedModel([[toolCall("c1", "echo", { text: "a" })], [toolCall("c2", "echo", { text: "b" })]]);
      const result = await runAgent({
        model,
        tools,
        messages: question,
        haltWhen: (turn) => {
          seen.push(turn);
          return turn.turn === 1;
        },
      });
      expect(result).toMatchObject({ haltedReason: "halt_when", metadata: { haltWhenTurn: 1 } });
      expect(seen[0]).toEqual({
        turn: 0,
        assistant: { role: "assistant", content: "", toolCalls: [callOf("c1", "echo", { text: "a" })] },
        toolMessages: [{ role: "tool", toolCallId: "c1", name: "echo", content: "a", isError: false }],
      });
    });

    it("a haltWhen that throws, or answers no boolean, ends the loop with error, not an unhandled exception", async () => {
      const bug = new Error("haltWhen bug");
      const thrown = await runAgent({
        model: scriptedModel([[toolCall("c1", "echo", { text: "a" })]]),
        tools,
        messages: question,
        haltWhen: () => {
          throw bug;
        },
      });
      expect(thrown).toMatchObject({ haltedReason: "error", metadata: { error: bug } });
      expect(thrown.messages).toHaveLength(3); // the turn completed before haltWhen was asked
      const odd = await runAgent({
        model: scriptedModel([[toolCall("c1", "echo", { text: "a" })]]),
        tools,
        messages: question,
        haltWhen: (() => "yes") as never,
      });
      expect(odd).toMatchObject({
        haltedReason: "error",
        metadata: { error: expect.objectContaining({ message: expect.stringMatching(/Expected `haltWhen` to return a boolean, got "yes"/) }) },
      });
    });
  });

  describe("8. maxTurns", () => {
    const forever = () => of<ModelEvent[]>(toolCall(`c${Math.random()}`, "echo", { text: "again" }));

    it("defaults to 8 model calls", async () => {
      const model = vi.fn(forever);
      const result = await runAgent({ model, tools, messages: question });
      expect(result).toMatchObject({ haltedReason: "max_turns", metadata: { maxTurns: 8 } });
      expect(model).toHaveBeenCalledTimes(8);
    });

    it("counts this run's model calls", async () => {
      const model = vi.fn(forever);
      const result = await runAgent({ model, tools, messages: question, maxTurns: 2 });
      expect(result.metadata).toEqual({ maxTurns: 2 });
      expect(model).toHaveBeenCalledTimes(2);
      expect(result.messages).toHaveLength(1 + 2 * 2);
    });

    it("haltWhen comes before maxTurns", async () => {
      const result = await runAgent({ model: forever, tools, messages: question, maxTurns: 1, haltWhen: () => true });
      expect(result.haltedReason).toBe("halt_when");
    });
  });

  it("agent_halted's conversation answers every call but the manual ones, so it can go to a provider", async () => {
    const model = scriptedModel([[toolCall("c1", "echo", { text: "a" }), toolCall("c2", "fail"), toolCall("c3", "pay"), toolCall("c4", "nope")]]);
    const result = await haltedOf({ model, tools, messages: question });
    const answered = result.messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
    expect(answered).toEqual(["c1", "c2", "c4"]);
  });
});
