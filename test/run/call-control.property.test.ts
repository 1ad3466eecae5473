/**
 * A property over random batches that use every call-control feature at once, in virtual time:
 * per-tool and per-group limits, retries, idle deadlines, progress, and cancels by id at random
 * times, the calls given as an array or streamed (at once, or arriving over time). Whatever happens, every call is answered exactly once (started, completed, one tail
 * event, in that order, reports only before completed), no limit is ever exceeded, a tool's
 * calls start their handlers in input order, and nothing is left scheduled at the end.
 */
import fc from "fast-check";
import { from, type Observable, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { defineTool, error, ok, streamToolCalls, type CallReport, type HandlerResult, type Tool, type ToolCall, type ToolEvent } from "../../src/index.js";
import { anyArgs, call } from "../support/helpers.js";
import { manualScheduler, type ManualScheduler } from "../support/manual-scheduler.js";

type Behaviour = { kind: "sync" } | { kind: "async"; ms: number; beats: number } | { kind: "throw" } | { kind: "hang" } | { kind: "own" };

const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.constant<Behaviour>({ kind: "sync" }),
  fc.record({ kind: fc.constant("async" as const), ms: fc.integer({ min: 1, max: 120 }), beats: fc.integer({ min: 0, max: 3 }) }),
  fc.constant<Behaviour>({ kind: "throw" }),
  fc.constant<Behaviour>({ kind: "hang" }),
  fc.constant<Behaviour>({ kind: "own" }),
);

const specArb = fc.record({
  calls: fc.array(fc.record({ tool: fc.integer({ min: 0, max: 3 }), behaviour: behaviourArb }), { minLength: 1, maxLength: 25 }),
  maxConcurrency: fc.integer({ min: 1, max: 6 }),
  soloLimit: fc.integer({ min: 1, max: 3 }),
  groupLimit: fc.integer({ min: 1, max: 3 }),
  idle: fc.option(fc.integer({ min: 20, max: 80 }), { nil: undefined }),
  cancels: fc.array(fc.record({ at: fc.integer({ min: 0, max: 300 }), call: fc.nat() }), { maxLength: 5 }),
  // The calls as one array (the batch), streamed all at once, or streamed over time: a streamed
  // call finding a slot free and nothing queued starts without the queue (the pool's `push`).
  input: fc.oneof(
    fc.constant({ kind: "batch" as const }),
    fc.constant({ kind: "streamed" as const }),
    fc.record({ kind: fc.constant("timed" as const), gaps: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 25, maxLength: 25 }) }),
  ),
});

type Spec = typeof specArb extends fc.Arbitrary<infer S> ? S : never;

/** Tools 0..3: no control; its own limit; group "g" (retried); group "g". */
function toolsFor(scheduler: ManualScheduler, spec: Spec, running: Map<string, number>, log: string[]): Tool[] {
  const controls = [
    undefined,
    { concurrency: spec.soloLimit },
    { concurrency: { group: "g", limit: spec.groupLimit }, idempotent: true, retry: { attempts: 2, delay: 10, jitter: false } },
    { concurrency: { group: "g", limit: spec.groupLimit } },
  ];
  const lane = (t: number) => (t === 1 ? "solo" : t >= 2 ? "g" : "none");
  return controls.map((control, t) =>
    defineTool({
      name: `t${t}`,
      description: "",
      schema: anyArgs,
      control,
      handler: ({ i }, ctx): HandlerResult | Promise<HandlerResult> => {
        const b = spec.calls[i as number]?.behaviour as Behaviour;
        const key = lane(t);
        running.set(key, (running.get(key) ?? 0) + 1);
        running.set("all", (running.get("all") ?? 0) + 1);
        log.push(`start ${key} ${i}`);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          running.set(key, (running.get(key) ?? 1) - 1);
          running.set("all", (running.get("all") ?? 1) - 1);
        };
        ctx.signal.addEventListener("abort", release);
        switch (b.kind) {
          case "sync":
            release();
            return ok(i);
          case "throw":
            release();
            throw new Error(`call ${i} failed`);
          case "own":
            release();
            return error(`call ${i} says no`);
          case "hang":
            return new Promise<HandlerResult>(() => {});
          case "async":
            return new Promise<HandlerResult>((resolve) => {
              for (let k = 1; k <= b.beats; k++) scheduler.schedule(() => ctx.progress({ progress: k, total: b.beats }), (b.ms * k) / (b.beats + 1));
              scheduler.schedule(() => {
                release();
                resolve(ok(i));
              }, b.ms);
            });
        }
      },
    }),
  );
}

/** The calls as the spec gives them: the array, an Observable of them all at once, or one arriving at each gap's end. */
function inputOf(spec: Spec, calls: ToolCall[], scheduler: ManualScheduler): ToolCall[] | Observable<ToolCall> {
  const { input } = spec;
  if (input.kind === "batch") return calls;
  if (input.kind === "streamed") return from(calls);
  const arrivals = new Subject<ToolCall>();
  let at = 0;
  calls.forEach((c, i) => {
    at += input.gaps[i] as number;
    // Same-time actions run in the order scheduled, so arrival order is input order.
    scheduler.schedule(() => {
      arrivals.next(c);
      if (i === calls.length - 1) arrivals.complete();
    }, at);
  });
  return arrivals;
}

describe("call control, over random batches with limits, groups, retries, idle deadlines and cancels", () => {
  it("answers every call exactly once, never exceeds a limit, keeps each lane's order, and leaves nothing scheduled", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const scheduler = manualScheduler();
        const running = new Map<string, number>();
        const peaks = new Map<string, number>();
        const log: string[] = [];
        const tools = toolsFor(scheduler, spec, running, log);
        const calls = spec.calls.map((c, i) => call(`c${i}`, `t${c.tool}`, { i }));
        const cancel = new Subject<string>();
        const seen: string[][] = calls.map(() => []);
        let completed = false;
        const note = (e: ToolEvent | CallReport) => {
          seen[e.index]?.push(e.type);
          for (const [key, n] of running) peaks.set(key, Math.max(peaks.get(key) ?? 0, n));
        };
        streamToolCalls(inputOf(spec, calls, scheduler), tools, {
          scheduler,
          cancel,
          maxConcurrency: spec.maxConcurrency,
          toolTimeout: 150,
          toolIdleTimeout: spec.idle,
          onCallReport: note,
          settleGrace: 50,
        }).subscribe({ next: note, complete: () => (completed = true) });
        for (const c of spec.cancels) scheduler.schedule(() => cancel.next(`c${c.call % calls.length}`), c.at);
        await scheduler.advance(5_000);

        expect(completed, "the stream completes").toBe(true);
        seen.forEach((types, i) => {
          const events = types.filter((t) => t.startsWith("tool_") || t === "ask_user_requested");
          expect(events, `call ${i}: started, completed, one tail`).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
          const completedAt = types.indexOf("tool_execution_completed");
          const after = types.slice(completedAt + 1).filter((t) => t !== "tool_result_encoded");
          expect(
            after.every((t) => t === "late_settlement"),
            `call ${i}: only late_settlement after completed`,
          ).toBe(true);
        });
        expect(peaks.get("all") ?? 0).toBeLessThanOrEqual(spec.maxConcurrency);
        expect(peaks.get("solo") ?? 0).toBeLessThanOrEqual(spec.soloLimit);
        expect(peaks.get("g") ?? 0).toBeLessThanOrEqual(spec.groupLimit);
        for (const lane of ["solo", "g"]) {
          // First attempts only: a retry restarts a call that already started.
          const firsts: number[] = [];
          for (const l of log) {
            const [, key, i] = l.split(" ");
            if (key === lane && !firsts.includes(Number(i))) firsts.push(Number(i));
          }
          expect(firsts, `${lane}: handlers start in input order`).toEqual([...firsts].sort((a, b) => a - b));
        }
        expect(scheduler.live, "nothing left scheduled").toBe(0);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
