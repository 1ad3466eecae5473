import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  askUser,
  defineTool,
  error,
  halt,
  memoryApprovalLedger,
  ok,
  runAgent,
  type AgentResult,
  type HandlerContext,
  type Message,
  type Model,
  type ModelEvent,
  type PendingApproval,
  type ToolCall,
} from "../../../src/index.js";
import { random } from "../../support/agent-scenarios.js";
import { issuesOf, NONE } from "../../support/conversation-issues.js";

// Issue 20's invariant: at every halt and after every resume, the conversation, converted by each
// provider's converter, satisfies that provider's wire rules; and no call ever runs twice.

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 1_000);

/**
 * A halted conversation with a stand-in answer for each call it hands to the host, placed as the
 * docs say the loop places the host's answers: right after the answers of the call's own turn.
 */
function withStandIns(messages: readonly Message[], waiting: ReadonlySet<string>): Message[] {
  const out = messages.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i] as Message;
    if (m.role !== "assistant" || m.toolCalls === undefined) continue;
    const calls = m.toolCalls.filter((call) => waiting.has(call.id));
    let at = i + 1;
    while (out[at]?.role === "tool") at++;
    out.splice(at, 0, ...calls.map((call): Message => ({ role: "tool", toolCallId: call.id, name: call.name, content: "stand-in", isError: false })));
  }
  return out;
}

/** Calls the halted conversation leaves unanswered. */
function unanswered(messages: readonly Message[]): string[] {
  const answered = new Set(messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  return messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])).filter((id) => !answered.has(id));
}

const KINDS = ["ok", "fail", "throws", "ask", "approve", "approve_big", "manual", "halt", "slow"] as const;
type Kind = (typeof KINDS)[number];
const turnArb = fc.record({
  text: fc.constantFrom("", "", "Checking.", "Done."),
  calls: fc.array(fc.record({ kind: fc.constantFrom(...KINDS), n: fc.integer({ min: 0, max: 9 }) }), { maxLength: 4 }),
  end: fc.constantFrom("finish", "finish", "finish", "none", "truncated", "errors"),
});
const scenarioArb = fc.record({
  turns: fc.array(turnArb, { minLength: 1, maxLength: 8 }),
  policy: fc.constantFrom("continue" as const, "halt" as const),
  secret: fc.boolean(),
  ledger: fc.boolean(),
  maxTurns: fc.integer({ min: 1, max: 4 }),
  seed: fc.integer(),
});

function setup(s: Parameters<Parameters<typeof fc.asyncProperty<[typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never]>>[1]>[0]) {
  const runs = new Map<string, number>();
  const count = (ctx: HandlerContext) => runs.set(ctx.toolCall.id, (runs.get(ctx.toolCall.id) ?? 0) + 1);
  const schema = z.object({ n: z.number() });
  const tools = [
    defineTool({
      name: "ok",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx);
        return ok({ n });
      },
    }),
    defineTool({
      name: "fail",
      description: "",
      schema,
      handler: (_a, ctx) => {
        count(ctx);
        return error("down");
      },
    }),
    defineTool({
      name: "throws",
      description: "",
      schema,
      handler: (_a, ctx) => {
        count(ctx);
        throw new Error("bug");
      },
    }),
    defineTool({
      name: "ask",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx);
        return askUser(`Question ${n}?`);
      },
    }),
    defineTool({
      name: "approve",
      description: "",
      schema,
      needsApproval: true,
      handler: ({ n }, ctx) => {
        count(ctx);
        return ok(n);
      },
    }),
    defineTool({
      name: "approve_big",
      description: "",
      schema,
      needsApproval: ({ n }) => n > 4,
      handler: ({ n }, ctx) => {
        count(ctx);
        return ok(n);
      },
    }),
    defineTool({ name: "manual", description: "", schema, manual: true }),
    defineTool({
      name: "halt",
      description: "",
      schema,
      handler: ({ n }, ctx) => {
        count(ctx);
        return halt("stop", n);
      },
    }),
    defineTool({
      name: "slow",
      description: "",
      schema,
      handler: async ({ n }, ctx) => {
        count(ctx);
        await Promise.resolve();
        return ok(n);
      },
    }),
  ];
  let next = 0;
  let ids = 0;
  const requests: (readonly Message[])[] = [];
  const model: Model = async function* (request): AsyncGenerator<ModelEvent> {
    requests.push(request.messages);
    const turn = s.turns[next++];
    if (turn === undefined) {
      yield { type: "text_delta", text: "All done." };
      return;
    }
    if (turn.text !== "") yield { type: "text_delta", text: turn.text };
    for (const { kind, n } of turn.calls) yield { type: "tool_call", call: { id: `c${ids++}`, name: kind as Kind, arguments: { n } } };
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
  return { runs, requests, options };
}

/** What the host appends to resume, the documented way, in a random order. */
function resumeInput(r: AgentResult<"stop">, rand: () => number): Message[] {
  const parts: Message[][] = [];
  const m = r.metadata as { pendingQuestions?: unknown[]; pendingApprovals?: PendingApproval[]; manualToolCalls?: ToolCall[] };
  const decisions = (m.pendingApprovals ?? []).map(
    (p): Message =>
      rand() < 0.7
        ? { role: "approval", toolCallId: p.toolCallId, approved: true, ...(p.token === undefined ? {} : { token: p.token }) }
        : { role: "approval", toolCallId: p.toolCallId, approved: false, reason: "no" },
  );
  const manual = (m.manualToolCalls ?? []).map((c): Message => ({ role: "tool", toolCallId: c.id, name: c.name, content: `done ${c.id}`, isError: false }));
  // Some hosts answer only part of it; the next run halts again with the rest.
  const keep = <T>(list: T[]) => list.filter(() => rand() < 0.85);
  parts.push(...keep(decisions).map((d) => [d]), ...keep(manual).map((t) => [t]));
  if (m.pendingQuestions !== undefined || rand() < 0.6) parts.push([{ role: "user", content: "Go on." }]);
  for (let i = parts.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [parts[i], parts[j]] = [parts[j] as Message[], parts[i] as Message[]];
  }
  return parts.flat();
}

describe("the conversation invariant, over generated runs", () => {
  it(`holds at every halt, in every model request and after every resume, for all three providers (${RUNS} scenarios)`, async () => {
    let runsDone = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { runs, requests, options } = setup(s);
        const rand = random(s.seed);
        let messages: Message[] = [{ role: "user", content: "Start." }];
        for (let round = 0; round < 6; round++) {
          const r = await runAgent<"stop">({ ...options, messages });
          runsDone++;
          const m = r.metadata as { pendingApprovals?: PendingApproval[]; manualToolCalls?: ToolCall[] };
          const waiting = new Set([...(m.pendingApprovals ?? []).map((p) => p.toolCallId), ...(m.manualToolCalls ?? []).map((c) => c.id)]);
          // Unanswered calls are exactly the ones handed to the host, and with them answered in place every rule holds.
          expect(new Set(unanswered(r.messages))).toEqual(waiting);
          expect(issuesOf(withStandIns(r.messages, waiting))).toEqual(NONE);
          if (r.haltedReason === "error") expect(r.metadata.error).not.toHaveProperty("reason", expect.stringMatching(/token|pending|used|arguments/));
          messages = [...r.messages, ...resumeInput(r, rand)];
        }
        for (const request of requests) expect(issuesOf(request)).toEqual(NONE);
        for (const [id, n] of runs) expect([id, n]).toEqual([id, 1]);
      }),
      { numRuns: RUNS },
    );
    expect(runsDone).toBeGreaterThanOrEqual(RUNS * 6);
  }, 120_000);
});
