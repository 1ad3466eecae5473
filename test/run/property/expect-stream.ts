/** The oracles of a whole run of the runner's property tests: event shape, handler bounds, what is left behind. */
import { expect } from "vitest";
import type { HaltMetadata, ToolCall, ToolEvent, ToolExecutionCompleted, ToolTailEvent } from "../../../src/index.js";
import type { ToolMessage } from "../../../src/tool/message.js";

import { type Behaviour, TIMED_OUT_KINDS } from "./arbitraries.js";
import type { Stamped } from "./instruments.js";
import type { Harness } from "./harness.js";
import type { StreamRun } from "./observe.js";
import { describeBehaviour } from "./oracle-terms.js";
import { expectOutcome } from "./expect-outcome.js";
import { messageOf, expectedHalt } from "./expect-policy.js";

export const TAIL_TYPES: ReadonlySet<ToolEvent["type"]> = new Set(["tool_result_encoded", "ask_user_requested", "tool_halt"]);

/**
 * §6 per call: `started`, `completed`, then one tail event, in that order, with the call's index,
 * id and name; the handler (if any) runs between `started` and `completed`; at most
 * `maxConcurrency` calls between `started` and their tail at any time. With `complete`, every
 * call has its three events; otherwise each has a prefix of them. Returns the tails by index.
 */
export function expectEventShape(h: Harness, events: readonly Stamped[], complete: boolean): (ToolTailEvent | undefined)[] {
  const n = h.calls.length;
  const perCall: Stamped[][] = h.calls.map(() => []);
  let inFlight = 0;
  for (const stamped of events) {
    const { event } = stamped;
    expect(Number.isInteger(event.index) && event.index >= 0 && event.index < n, `event index ${event.index} is in range`).toBe(true);
    const call = h.calls[event.index] as ToolCall;
    expect(event.toolCallId, `event ${event.type} of call ${event.index}: toolCallId`).toBe(call.id);
    expect(event.toolName, `event ${event.type} of call ${event.index}: toolName`).toBe(call.name);
    perCall[event.index]?.push(stamped);
    if (event.type === "tool_execution_started") inFlight++;
    if (TAIL_TYPES.has(event.type)) inFlight--;
    expect(inFlight, "calls between started and their tail event").toBeLessThanOrEqual(h.spec.maxConcurrency);
  }
  const tails: (ToolTailEvent | undefined)[] = [];
  perCall.forEach((list, i) => {
    const where = `call ${i} (${describeBehaviour(h.spec.behaviours[i] as Behaviour)})`;
    const types = list.map((s) => s.event.type);
    if (complete) expect(types.length, `${where}: exactly three events, got ${types.join(", ")}`).toBe(3);
    expect(types.length, `${where}: at most three events, got ${types.join(", ")}`).toBeLessThanOrEqual(3);
    if (types.length >= 1) expect(types[0], `${where}: first event`).toBe("tool_execution_started");
    if (types.length >= 2) expect(types[1], `${where}: second event`).toBe("tool_execution_completed");
    if (types.length >= 3) expect(TAIL_TYPES.has(types[2] as ToolEvent["type"]), `${where}: third event ${types[2]} is a tail event`).toBe(true);
    const [started, completed, tail] = list;
    if (started !== undefined && started.event.type === "tool_execution_started") {
      expect(started.event.arguments, `${where}: started carries the call's arguments`).toEqual((h.calls[i] as ToolCall).arguments);
    }
    for (const rec of h.handlers[i] ?? []) {
      if (started !== undefined) expect(rec.startedAt, `${where}: the handler starts after started`).toBeGreaterThan(started.at);
      if (completed !== undefined) expect(rec.startedAt, `${where}: the handler starts before completed`).toBeLessThan(completed.at);
    }
    tails.push(tail?.event as ToolTailEvent | undefined);
  });
  return tails;
}

/** Handlers: never more running than `maxConcurrency`; each called at most once. */
export function expectHandlerBounds(h: Harness): void {
  expect(h.peak, "peak number of running handlers").toBeLessThanOrEqual(h.spec.maxConcurrency);
  h.handlers.forEach((records, i) => {
    expect(records.length, `call ${i}: handler calls`).toBeLessThanOrEqual(1);
  });
}

export function expectNothingLeft(h: Harness, when: string, timers = h.scheduler.live, listeners = h.listeners.live): void {
  expect(timers, `live deadline timers ${when}`).toBe(0);
  expect(listeners, `live listeners on opts.signal ${when}`).toBe(0);
}

/** §6 "Deadlines and cancellation", for a run cut at `cutAt`. */
export function expectCutRespected(h: Harness, cutAt: number): void {
  h.handlers.forEach((records, i) => {
    for (const rec of records) {
      const where = `call ${i} (${describeBehaviour(h.spec.behaviours[i] as Behaviour)})`;
      expect(rec.startedAt, `${where}: no handler starts after the cut`).toBeLessThan(cutAt);
      const runningAtCut = rec.settledAt === undefined || rec.settledAt > cutAt;
      if (runningAtCut) expect(rec.signal.aborted, `${where}: a handler running at the cut has its ctx.signal aborted`).toBe(true);
    }
  });
}

/** Everything a run to completion promises, from its stream. Returns its messages and halt. */
export function expectCompletedStream(h: Harness, run: StreamRun): { messages: ToolMessage[]; halt: HaltMetadata | undefined } {
  expect(run.end, "the stream completes").toStrictEqual({ kind: "complete" });
  expectNothingLeft(h, "when the stream completes", run.timersAtEnd, run.listenersAtEnd);
  const tails = expectEventShape(h, run.events, true) as ToolTailEvent[];
  tails.forEach((tail, i) => {
    const completed = run.events.find((s) => s.event.index === i && s.event.type === "tool_execution_completed")?.event;
    expectOutcome(h, i, completed as ToolExecutionCompleted, tail);
  });
  expectHandlerBounds(h);
  if (h.spec.behaviours.some((b) => TIMED_OUT_KINDS.has(b.kind))) {
    expect(h.scheduler.fired, "deadlines run on opts.scheduler").toBeGreaterThan(0);
  }
  return { messages: tails.map(messageOf), halt: expectedHalt(h, tails) };
}
