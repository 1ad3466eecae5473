import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentTool,
  defineTool,
  ok,
  runAgent,
  streamAgent,
  type AgentEvent,
  type AgentResult,
  type CallReport,
  type HandlerResult,
  type ModelEvent,
} from "../../../src/index.js";
import { scriptedModel } from "../../../src/testing/index.js";
import { finish, toolCall, user } from "../../support/agent-helpers.js";
import { manualScheduler, type ManualScheduler } from "../../support/manual-scheduler.js";

/**
 * The runner's options are resolved once per run and shared by its turns, so what a call reports
 * has to find its own turn however late it comes: a handler that settles after its deadline (its
 * `late_settlement` report), its progress, and a subagent's tokens, while a later turn runs.
 */

const TIMEOUT = 100;

/** One call: when its handler settles (past `TIMEOUT`, late), when it reports progress, and whether it is a subagent. */
const callArb = fc.record({ settleAt: fc.nat(250), progressAt: fc.option(fc.nat(250), { nil: undefined }), sub: fc.boolean() });
/** One turn: how long the model thinks before its calls, then the calls. */
const turnArb = fc.record({ think: fc.nat(150), calls: fc.array(callArb, { minLength: 1, maxLength: 3 }) });
const scenarioArb = fc.array(turnArb, { minLength: 2, maxLength: 4 });
type Scenario = readonly { think: number; calls: readonly { settleAt: number; progressAt: number | undefined; sub: boolean }[] }[];

/** The turn a call id names: the model numbers its calls `t<turn>c<index>`. */
const turnOf = (id: string): number => Number(/^t(\d+)c/.exec(id)?.[1]);

function optionsOf(s: Scenario, scheduler: ManualScheduler) {
  const later = <T>(at: number, value: () => T): Promise<T> => new Promise((resolve) => scheduler.schedule(() => resolve(value()), at));
  const slow = defineTool({
    name: "slow",
    description: "",
    schema: z.object({ settleAt: z.number(), progressAt: z.number().optional() }),
    handler: ({ settleAt, progressAt }, ctx): Promise<HandlerResult> => {
      if (progressAt !== undefined) scheduler.schedule(() => ctx.progress({ progress: progressAt }), progressAt);
      return later(settleAt, () => ok(settleAt));
    },
  });
  const sub = agentTool({
    name: "sub",
    description: "",
    schema: z.object({ settleAt: z.number() }),
    agent: ({ settleAt }) => ({
      model: scriptedModel([[{ type: "usage", usage: { inputTokens: settleAt, outputTokens: 1 } }, { wait: settleAt }, finish("stop")]], { scheduler }),
      tools: [],
      messages: [user("go")],
      scheduler,
    }),
  });
  const script = s.map((turn, t): (ModelEvent | { wait: number })[] => [
    { wait: turn.think },
    ...turn.calls.map((c, i) => toolCall(`t${t}c${i}`, c.sub ? "sub" : "slow", c.sub ? { settleAt: c.settleAt } : c)),
    finish("tool_calls"),
  ]);
  return { model: scriptedModel(script, { scheduler }), tools: [slow, sub], messages: [user("go")], maxTurns: s.length, toolTimeout: TIMEOUT, scheduler };
}

/** Run to its end in virtual time, well past every handler's settling. */
async function drive(scheduler: ManualScheduler, done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await scheduler.advance(10);
  await scheduler.advance(1_000);
}

/** Every event of a watched run, and how many late settlements the host's own listener heard while a later turn ran. */
async function watched(s: Scenario): Promise<{ events: AgentEvent[]; lateInALaterTurn: number }> {
  const scheduler = manualScheduler();
  const events: AgentEvent[] = [];
  let turn = -1;
  let lateInALaterTurn = 0;
  let over = false;
  const onCallReport = (r: CallReport) => {
    if (r.type === "late_settlement" && !over && turnOf(r.toolCallId) < turn) lateInALaterTurn++;
  };
  streamAgent({ ...optionsOf(s, scheduler), onCallReport }).subscribe({
    next: (e) => {
      if (e.type === "turn_started") turn = e.turn;
      events.push(e);
    },
    complete: () => (over = true),
  });
  await drive(scheduler, () => over);
  return { events, lateInALaterTurn };
}

async function quiet(s: Scenario): Promise<AgentResult> {
  const scheduler = manualScheduler();
  let result: AgentResult | undefined;
  void runAgent(optionsOf(s, scheduler)).then((r) => (result = r));
  await drive(scheduler, () => result !== undefined);
  if (result === undefined) throw new Error("the run did not end");
  return result;
}

const subagentTurns = (r: AgentResult | AgentEvent | undefined) =>
  ((r as AgentResult | undefined)?.usageBreakdown ?? []).flatMap((u) => (u.source === "subagent" ? [{ turn: u.turn, id: u.toolCallId }] : []));

describe("a run's reports across turns", () => {
  it("go to the turn of the call that made them, however late they come", async () => {
    let lateInALaterTurn = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const { events, lateInALaterTurn: late } = await watched(s);
        lateInALaterTurn += late;
        for (const e of events) {
          if (e.type !== "call_report" && e.type !== "subagent_event") continue;
          const id = e.type === "call_report" ? e.report.toolCallId : e.toolCallId;
          expect(e.turn, `${e.type} of ${id}`).toBe(turnOf(id));
        }
        // runAgent shows no reports: a subagent's tokens are what must find the call's turn there.
        const result = await quiet(s);
        for (const { turn: t, id } of subagentTurns(result)) expect(t, id).toBe(turnOf(id));
        expect(subagentTurns(result)).toEqual(subagentTurns(events.at(-1)));
      }),
    );
    // The property reaches its case: late settlements that came while a later turn ran.
    expect(lateInALaterTurn).toBeGreaterThan(0);
  });
});
