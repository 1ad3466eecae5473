import type { AGUIEvent, Interrupt, ResumeEntry } from "@ag-ui/core";
import { EventSchemas, RunAgentInputSchema } from "@ag-ui/core/schemas";
import fc from "fast-check";
import { lastValueFrom, tap, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { fromRunAgentInput, toAgUiEvents } from "../../src/ag-ui/index.js";
import { streamAgent, type AgentHaltedEvent, type Message } from "../../src/index.js";
import { random, scenarioArb, scenarioOptions } from "../support/agent-scenarios.js";

// Issue 31: every AG-UI event toolrx sends parses with @ag-ui/core's own schemas, in a valid
// order, for random runs; and the interrupts' answers resume the run.

const RUNS = Number(process.env.TOOLRX_PROPERTY_RUNS ?? 100);

/** The order the protocol asks for: one run, paired steps, each message and call opened before it is written to and closed once. */
function orderIssues(events: readonly AGUIEvent[], known: ReadonlySet<string>): string[] {
  const issues: string[] = [];
  const open = { text: new Set<string>(), call: new Set<string>(), step: new Set<string>(), span: new Set<string>(), thought: new Set<string>() };
  const ended = new Set<string>(known);
  const seen = new Set<string>();
  events.forEach((e, i) => {
    const at = `${i} ${e.type}`;
    if ((i === 0) !== (e.type === "RUN_STARTED")) issues.push(`${at}: RUN_STARTED must come first, once`);
    const last = i === events.length - 1;
    if ((e.type === "RUN_FINISHED" || e.type === "RUN_ERROR") !== last) issues.push(`${at}: the run ends last, once`);
    if (e.type === "STEP_STARTED") open.step.add(e.stepName);
    if (e.type === "STEP_FINISHED" && !open.step.delete(e.stepName)) issues.push(`${at}: step not open`);
    if (e.type === "TEXT_MESSAGE_START") {
      if (seen.has(e.messageId)) issues.push(`${at}: message id reused`);
      seen.add(e.messageId);
      open.text.add(e.messageId);
    }
    if ((e.type === "TEXT_MESSAGE_CONTENT" || e.type === "TEXT_MESSAGE_END") && !open.text.has(e.messageId)) issues.push(`${at}: message not open`);
    if (e.type === "TEXT_MESSAGE_END") open.text.delete(e.messageId);
    if (e.type === "TOOL_CALL_START") {
      if (seen.has(e.toolCallId)) issues.push(`${at}: call id reused`);
      seen.add(e.toolCallId);
      open.call.add(e.toolCallId);
    }
    if ((e.type === "TOOL_CALL_ARGS" || e.type === "TOOL_CALL_END") && !open.call.has(e.toolCallId)) issues.push(`${at}: call not open`);
    if (e.type === "TOOL_CALL_END") {
      open.call.delete(e.toolCallId);
      ended.add(e.toolCallId);
    }
    if (e.type === "TOOL_CALL_RESULT" && !ended.has(e.toolCallId)) issues.push(`${at}: result before its call ended`);
    // Reasoning: a span holds reasoning messages; the model's text and calls come after it closes.
    if (e.type === "REASONING_START") {
      if (seen.has(e.messageId)) issues.push(`${at}: span id reused`);
      seen.add(e.messageId);
      open.span.add(e.messageId);
    }
    if (e.type === "REASONING_MESSAGE_START") {
      if (open.span.size !== 1) issues.push(`${at}: reasoning message outside a span`);
      if (seen.has(e.messageId)) issues.push(`${at}: reasoning message id reused`);
      seen.add(e.messageId);
      open.thought.add(e.messageId);
    }
    if ((e.type === "REASONING_MESSAGE_CONTENT" || e.type === "REASONING_MESSAGE_END") && !open.thought.has(e.messageId))
      issues.push(`${at}: reasoning message not open`);
    if (e.type === "REASONING_ENCRYPTED_VALUE" && !open.thought.has(e.entityId)) issues.push(`${at}: encrypted value of no open reasoning message`);
    if (e.type === "REASONING_MESSAGE_END") open.thought.delete(e.messageId);
    if (e.type === "REASONING_END" && (!open.span.delete(e.messageId) || open.thought.size > 0))
      issues.push(`${at}: span not open, or a message in it still open`);
    if ((e.type === "TEXT_MESSAGE_START" || e.type === "TOOL_CALL_START") && open.span.size > 0) issues.push(`${at}: inside a reasoning span`);
  });
  const left = [...open.text, ...open.call, ...open.step, ...open.span, ...open.thought];
  if (left.length > 0) issues.push(`left open: ${left.join(", ")}`);
  return issues;
}

function resumeOf(interrupts: readonly Interrupt[], rand: () => number): ResumeEntry[] {
  return interrupts.flatMap((it): ResumeEntry[] => {
    if (rand() < 0.15) return [];
    if (it.reason === "ask_user") return [{ interruptId: it.id, status: "resolved", payload: "Blue." }];
    const approved = rand() < 0.7;
    const token = (it.metadata as { token?: string } | undefined)?.token;
    return [
      {
        interruptId: it.id,
        status: "resolved",
        payload: approved ? { approved } : { approved, reason: "no" },
        ...(token === undefined ? {} : { metadata: { token } }),
      },
    ];
  });
}

describe("toAgUiEvents, checked with @ag-ui/core's schemas", () => {
  it(`sends only events the schemas accept, in the protocol's order, and interrupts that resume the run (${RUNS} scenarios)`, async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { runs, options } = scenarioOptions(s);
        const rand = random(s.seed);
        let messages: Message[] = [{ role: "user", content: "Start." }];
        for (let round = 0; round < 5; round++) {
          let halted: AgentHaltedEvent<string> | undefined;
          const events = await lastValueFrom(
            streamAgent({ ...options, messages }).pipe(
              tap((e) => {
                if (e.type === "agent_halted") halted = e;
              }),
              toAgUiEvents({ threadId: "thread", runId: `run-${round}`, messages }),
              toArray(),
            ),
          );
          for (const e of events) {
            const parsed = EventSchemas.safeParse(e);
            expect(parsed.success, `${JSON.stringify(e)} ${parsed.error?.message}`).toBe(true);
          }
          const known = new Set(messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])));
          expect(orderIssues(events, known)).toEqual([]);
          const end = halted as AgentHaltedEvent<string>;
          const last = events.at(-1);
          expect(last?.type).toBe(end.haltedReason === "error" ? "RUN_ERROR" : "RUN_FINISHED");
          const interrupts = last?.type === "RUN_FINISHED" && last.outcome?.type === "interrupt" ? last.outcome.interrupts : [];
          const manual = ((end.metadata as { manualToolCalls?: { id: string; name: string }[] }).manualToolCalls ?? []).filter(() => rand() < 0.85);
          const input = RunAgentInputSchema.parse({ threadId: "thread", runId: `run-${round + 1}`, messages: [], resume: resumeOf(interrupts, rand) });
          messages = [
            ...end.messages,
            ...manual.map((c): Message => ({ role: "tool", toolCallId: c.id, name: c.name, content: `done ${c.id}`, isError: false })),
            ...fromRunAgentInput(input),
          ];
          if (rand() < 0.3) messages.push({ role: "user", content: "Go on." });
        }
        for (const [id, n] of runs) expect([id, n]).toEqual([id, 1]);
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
