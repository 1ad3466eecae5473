import fc from "fast-check";
import { z } from "zod";
import { askUser, defineTool, error, halt, memoryApprovalLedger, ok, type AgentOptions, type Model, type ModelEvent } from "../../src/index.js";

// The random agent runs of test/agent/conversation/conversation.property.test.ts, for the protocol adapters:
// every kind of call outcome and halt, calls that stream their arguments, progress reports,
// reasoning streamed and closed with a provider's state.

/** A small seeded generator (mulberry32), so a case's host answers and resumes replay exactly when fast-check shrinks it. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const KINDS = ["ok", "fail", "throws", "ask", "approve", "approve_big", "manual", "halt", "slow", "text"] as const;
export type Kind = (typeof KINDS)[number];

const turnArb = fc.record({
  /** What the model reasons before it answers: nothing, streamed text alone, or pieces closed with a provider's state. */
  reasoning: fc.constantFrom("none", "none", "streamed", "signed", "two"),
  text: fc.constantFrom("", "", "Checking.", "Done.", "Ünïcode ✓"),
  calls: fc.array(fc.record({ kind: fc.constantFrom(...KINDS), n: fc.integer({ min: 0, max: 9 }), streamed: fc.boolean() }), { maxLength: 4 }),
  end: fc.constantFrom("finish", "finish", "finish", "none", "truncated", "errors"),
});

export const scenarioArb = fc.record({
  turns: fc.array(turnArb, { minLength: 1, maxLength: 6 }),
  policy: fc.constantFrom("continue" as const, "halt" as const),
  secret: fc.boolean(),
  ledger: fc.boolean(),
  maxTurns: fc.integer({ min: 1, max: 4 }),
  seed: fc.integer(),
});
export type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

/** The tools and model of a scenario; `runs` counts each call's handler runs. */
export function scenarioOptions(s: Scenario): { runs: Map<string, number>; options: Omit<AgentOptions, "messages"> } {
  const runs = new Map<string, number>();
  const count = (id: string) => runs.set(id, (runs.get(id) ?? 0) + 1);
  const schema = z.object({ n: z.number() });
  const tools = [
    defineTool({
      name: "ok",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx.toolCall.id);
        ctx.progress({ progress: 0.5, message: `half of ${n}` });
        return ok({ n, nested: { list: [n, "x"] } });
      },
    }),
    defineTool({
      name: "fail",
      description: "",
      schema,
      handler: (_a, ctx) => {
        count(ctx.toolCall.id);
        return error("down");
      },
    }),
    defineTool({
      name: "throws",
      description: "",
      schema,
      handler: (_a, ctx) => {
        count(ctx.toolCall.id);
        throw new Error("bug");
      },
    }),
    defineTool({
      name: "ask",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx.toolCall.id);
        return n % 2 === 0 ? askUser(`Question ${n}?`) : askUser(`Pick ${n}?`, { choices: ["a", "b"] });
      },
    }),
    defineTool({
      name: "approve",
      description: "",
      schema,
      needsApproval: true,
      handler: ({ n }, ctx) => {
        count(ctx.toolCall.id);
        return ok(n);
      },
    }),
    defineTool({
      name: "approve_big",
      description: "",
      schema,
      needsApproval: ({ n }) => n > 4,
      handler: ({ n }, ctx) => {
        count(ctx.toolCall.id);
        return ok([n]);
      },
    }),
    defineTool({ name: "manual", description: "", schema, manual: true }),
    defineTool({
      name: "halt",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx.toolCall.id);
        return halt("stop", n);
      },
    }),
    defineTool({
      name: "slow",
      description: "",
      schema,
      handler: async ({ n }, ctx) => {
        count(ctx.toolCall.id);
        await Promise.resolve();
        return ok(n);
      },
    }),
    defineTool({
      name: "text",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx.toolCall.id);
        return ok(`plain ${n}`);
      },
    }),
  ];
  let next = 0;
  let ids = 0;
  const model: Model = async function* (): AsyncGenerator<ModelEvent> {
    const turn = s.turns[next++];
    if (turn === undefined) {
      yield { type: "text_delta", text: "All done." };
      return;
    }
    if (turn.reasoning !== "none") {
      yield { type: "reasoning_delta", text: "Think" };
      yield { type: "reasoning_delta", text: "ing ✓" };
    }
    if (turn.reasoning === "signed" || turn.reasoning === "two")
      yield { type: "reasoning", part: { text: "Thinking ✓", provider: "anthropic", data: { signature: `sig-${next}` } } };
    if (turn.reasoning === "two") yield { type: "reasoning", part: { text: "", provider: "anthropic", data: { redacted: "opaque" } } };
    if (turn.text !== "") yield { type: "text_delta", text: turn.text };
    for (const { kind, n, streamed } of turn.calls) {
      const id = `c${ids++}`;
      const args = { n };
      if (streamed) {
        const text = JSON.stringify(args);
        yield { type: "tool_input_started", id, name: kind };
        yield { type: "tool_input_delta", id, delta: text.slice(0, 3) };
        yield { type: "tool_input_delta", id, delta: text.slice(3) };
        yield { type: "tool_call", call: { id, name: kind, arguments: args, rawArguments: text } };
      } else yield { type: "tool_call", call: { id, name: kind, arguments: args } };
    }
    if (turn.end === "finish") yield { type: "finish", reason: turn.calls.length > 0 ? "tool_calls" : "stop" };
    if (turn.end === "truncated") yield { type: "finish", reason: "error", error: new Error("stream cut") };
    if (turn.end === "errors") throw new Error("overloaded");
  };
  const options = {
    model,
    tools,
    maxTurns: s.maxTurns,
    onToolError: s.policy,
    ...(s.secret ? { approvalSecret: "property secret" } : {}),
    ...(s.ledger ? { approvalLedger: memoryApprovalLedger() } : {}),
  };
  return { runs, options };
}
