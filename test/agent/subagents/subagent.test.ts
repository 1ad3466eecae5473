import { Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentTool, askUser, defineTool, ok, runAgent, type streamAgent, type AgentEvent, type Message } from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { agentEvents, finish, text, toolCall, user } from "../../support/agent-helpers.js";
import { manualScheduler } from "../../support/manual-scheduler.js";

const lookup = defineTool({ name: "lookup", description: "", schema: z.object({ q: z.string() }), handler: ({ q }) => ok(`facts about ${q}`) });
const clarify = defineTool({ name: "clarify", description: "", schema: z.object({ question: z.string() }), handler: ({ question }) => askUser(question) });

/** A research subagent whose model is given per test. */
const researcher = (model: ReturnType<typeof scriptedModel>, extra: Partial<Parameters<typeof streamAgent>[0]> = {}) =>
  agentTool({
    name: "research",
    description: "Research a topic",
    schema: z.object({ topic: z.string() }),
    agent: ({ topic }) => ({ model, tools: [lookup, clarify], messages: [user(`Research ${topic}`)], ...extra }),
  });

describe("agentTool: a subagent as a tool", () => {
  describe("when the subagent completes", () => {
    it("its final text is the call's result, and its events reach the parent's stream tagged with the call", async () => {
      const sub = scriptedModel([
        [toolCall("s1", "lookup", { q: "otters" }), finish("tool_calls")],
        [text("Otters hold hands."), finish("stop")],
      ]);
      const parent = scriptedModel([
        [toolCall("p1", "research", { topic: "otters" }), finish("tool_calls")],
        [text("Done."), finish("stop")],
      ]);
      const events = await agentEvents({ model: parent, tools: [researcher(sub)], messages: [user("Tell me about otters")] });

      const nested = events.filter((e): e is Extract<AgentEvent, { type: "subagent_event" }> => e.type === "subagent_event");
      expect(nested.every((e) => e.toolCallId === "p1" && e.toolName === "research" && e.turn === 0)).toBe(true);
      expect(nested.map((e) => e.event.type)).toEqual([
        "turn_started",
        "tool_event",
        "tool_event",
        "tool_event",
        "model_reply",
        "turn_completed",
        "turn_started",
        "text_delta",
        "model_reply",
        "turn_completed",
        "agent_halted",
      ]);
      const halted = events.at(-1);
      expect(halted?.type === "agent_halted" && halted.messages.find((m) => m.role === "tool")).toMatchObject({
        toolCallId: "p1",
        content: "Otters hold hands.",
        isError: false,
      });
      // Everything the subagent told came before the call's own completion.
      const completedAt = events.findIndex((e) => e.type === "tool_event" && e.event.type === "tool_execution_completed");
      expect(events.map((e) => e.type).lastIndexOf("subagent_event")).toBeLessThan(completedAt);
    });

    it("a subagent's subagent arrives nested twice", async () => {
      const inner = scriptedModel([[text("deep"), finish("stop")]]);
      const deep = agentTool({ name: "deep", description: "", schema: z.object({}), agent: () => ({ model: inner, tools: [], messages: [user("go")] }) });
      const middle = scriptedModel([
        [toolCall("m1", "deep"), finish("tool_calls")],
        [text("middle done"), finish("stop")],
      ]);
      const mid = agentTool({ name: "mid", description: "", schema: z.object({}), agent: () => ({ model: middle, tools: [deep], messages: [user("go")] }) });
      const parent = scriptedModel([[toolCall("p1", "mid"), finish("tool_calls")], [finish("stop")]]);
      const events = await agentEvents({ model: parent, tools: [mid], messages: [user("go")] });
      const twice = events.flatMap((e) =>
        e.type === "subagent_event" && e.event.type === "subagent_event" ? [[e.toolCallId, e.event.toolCallId, e.event.event.type]] : [],
      );
      expect(twice).toContainEqual(["p1", "m1", "text_delta"]);
    });
  });

  describe("when the call's deadline passes (virtual time)", () => {
    it("the subagent's model is aborted and the parent reads timeout", async () => {
      const scheduler = manualScheduler();
      const signals: AbortSignal[] = [];
      const hanging = Object.assign(
        (request: { signal: AbortSignal }) => {
          signals.push(request.signal);
          return new Subject<never>();
        },
        { requests: [] },
      ) as unknown as ReturnType<typeof scriptedModel>;
      const parent = scriptedModel([[toolCall("p1", "research", { topic: "x" }), finish("tool_calls")], [finish("stop")]]);
      const done = runAgent({ model: parent, tools: [researcher(hanging)], messages: [user("go")], toolTimeout: 1_000, scheduler });
      await scheduler.advance(999);
      expect(signals[0]?.aborted).toBe(false);
      await scheduler.advance(1);
      expect(signals[0]?.aborted).toBe(true);
      const result = await done;
      expect(result.messages.find((m) => m.role === "tool")).toMatchObject({ isError: true, content: expect.stringContaining("timeout") });
    });
  });

  describe("when the parent is cancelled", () => {
    it("the subagent's run is aborted with it", async () => {
      const signals: AbortSignal[] = [];
      const hanging = ((request: { signal: AbortSignal }) => {
        signals.push(request.signal);
        return new Subject<never>();
      }) as unknown as ReturnType<typeof scriptedModel>;
      const controller = new AbortController();
      const parent = scriptedModel([[toolCall("p1", "research", { topic: "x" }), finish("tool_calls")]]);
      const done = runAgent({ model: parent, tools: [researcher(hanging)], messages: [user("go")], signal: controller.signal });
      await new Promise((r) => setTimeout(r, 10));
      controller.abort(new Error("stop"));
      expect((await done).haltedReason).toBe("cancelled");
      expect(signals[0]?.aborted).toBe(true);
    });
  });

  describe("when the subagent asks the user", () => {
    it("the parent halts with the question, and resuming the parent resumes the subagent", async () => {
      const sub = scriptedModel([
        [toolCall("s1", "clarify", { question: "Sea or river otters?" }), finish("tool_calls")],
        (request) => {
          // The subagent is asked again with the user's answer at the end of its own conversation.
          expect(request.messages.at(-1)).toEqual(user("River"));
          return [text("River otters hold hands."), finish("stop")];
        },
      ]);
      const parent = scriptedModel([
        [toolCall("p1", "research", { topic: "otters" }), finish("tool_calls")],
        (request) => {
          expect(request.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "p1-resume1", content: "River otters hold hands." });
          return [text("River otters hold hands, it says."), finish("stop")];
        },
      ]);
      const tools = [researcher(sub)];
      const first = await runAgent({ model: parent, tools, messages: [user("Otters?")] });
      expect(first.haltedReason).toBe("ask_user");
      expect(first.metadata).toMatchObject({
        pendingQuestion: "Sea or river otters?",
        pendingToolCallId: "p1",
        askUserOpts: { subagent: { tool: "research", haltedReason: "ask_user", round: 0 } },
      });

      const second = await runAgent({ model: parent, tools, messages: [...first.messages, user("River")] });
      expect(second.haltedReason).toBe("completed");
      const added = second.messages.slice(first.messages.length + 1);
      expect(added).toEqual([
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "p1-resume1", name: "research", arguments: { topic: "otters" } }],
          metadata: { subagentContinuation: "p1" },
        },
        { role: "tool", toolCallId: "p1-resume1", name: "research", content: "River otters hold hands.", isError: false },
        { role: "assistant", content: "River otters hold hands, it says." },
      ]);
      // No call in the conversation is left unanswered.
      const calls = second.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []));
      const answered = new Set(second.messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
      expect(calls.filter((id) => !answered.has(id))).toEqual([]);
    });
  });

  describe("when a call of the subagent needs approval", () => {
    it("the host's decision appended to the parent's conversation reaches the subagent", async () => {
      const ran: string[] = [];
      const pay = defineTool({
        name: "pay",
        description: "",
        schema: z.object({ amount: z.number() }),
        needsApproval: true,
        handler: ({ amount }) => {
          ran.push(`paid ${amount}`);
          return ok("paid");
        },
      });
      const sub = scriptedModel([
        [toolCall("s1", "pay", { amount: 5 }), finish("tool_calls")],
        [text("Paid 5."), finish("stop")],
      ]);
      const payer = agentTool({ name: "payer", description: "", schema: z.object({}), agent: () => ({ model: sub, tools: [pay], messages: [user("pay 5")] }) });
      const parent = scriptedModel([
        [toolCall("p1", "payer"), finish("tool_calls")],
        [text("ok"), finish("stop")],
      ]);
      const first = await runAgent({ model: parent, tools: [payer], messages: [user("pay")] });
      expect(first.haltedReason).toBe("ask_user");
      expect(first.metadata).toMatchObject({
        pendingQuestion: "Approval required for pay",
        askUserOpts: {
          subagent: { haltedReason: "approval_required", metadata: { pendingApprovals: [{ toolCallId: "s1", toolName: "pay", arguments: { amount: 5 } }] } },
        },
      });
      expect(ran).toEqual([]);
      const decision: Message = { role: "approval", toolCallId: "s1", approved: true };
      const second = await runAgent({ model: parent, tools: [payer], messages: [...first.messages, decision] });
      expect(ran).toEqual(["paid 5"]);
      expect(second.haltedReason).toBe("completed");
      expect(second.messages.find((m) => m.role === "tool" && m.toolCallId === "p1-resume1")).toMatchObject({ content: "Paid 5." });
    });
  });

  describe("when the subagent runs out of turns", () => {
    it("the parent's model reads an error naming the ending", async () => {
      const sub = scriptedModel([[toolCall("s1", "lookup", { q: "x" }), finish("tool_calls")]]);
      const parent = scriptedModel([[toolCall("p1", "research", { topic: "x" }), finish("tool_calls")], [finish("stop")]]);
      const result = await runAgent({ model: parent, tools: [researcher(sub, { maxTurns: 1 })], messages: [user("go")] });
      expect(result.messages.find((m) => m.role === "tool")).toMatchObject({ isError: true, content: expect.stringContaining("max_turns") });
    });
  });
});
