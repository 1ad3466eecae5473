/**
 * The fractional-deadline property, as a program: `node --import tsx <this file> [runs]` exits 0
 * when every run terminated, 1 with the counterexample otherwise. It runs in a child process
 * because a deadline loop that spins does so synchronously, inside one scheduled action: no step
 * cap in the same thread could stop it, but the parent can kill the child.
 */
import fc from "fast-check";
import { Subscription, type SchedulerAction, type SchedulerLike } from "rxjs";
import { defineTool, error, ok, streamToolCalls, ToolError, type HandlerResult } from "../../src/index.js";
import { anyArgs } from "./helpers.js";
import { suiteSeed } from "./suite-seed.js";

/** A virtual clock run action by action, refusing to run more than `cap` actions. */
function cappedScheduler(start: number, cap: number) {
  let now = start;
  let seq = 0;
  let steps = 0;
  const pending = new Set<{ at: number; seq: number; run: () => void }>();
  const scheduler: SchedulerLike = {
    now: () => now,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      const subscription = new Subscription(() => pending.delete(entry));
      const entry = {
        at: now + delay,
        seq: seq++,
        run: () => {
          pending.delete(entry);
          return work.call(subscription as unknown as SchedulerAction<T>, state);
        },
      };
      pending.add(entry);
      return subscription;
    },
  };
  /** Run the earliest action; false when none is left. */
  const step = (): boolean => {
    let next: { at: number; seq: number; run: () => void } | undefined;
    for (const e of pending) if (next === undefined || e.at < next.at || (e.at === next.at && e.seq < next.seq)) next = e;
    if (next === undefined) return false;
    if (++steps > cap) throw new Error(`no end after ${cap} scheduled actions (virtual time ${now})`);
    now = Math.max(now, next.at);
    next.run();
    return true;
  };
  return { scheduler, step };
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const fractional = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

const attemptPlan = fc.record({ duration: fractional(0, 400), fails: fc.boolean(), reports: fc.array(fractional(0, 300), { maxLength: 3 }) });

const scenario = fc.record({
  start: fractional(0, 1e7),
  toolTimeout: fractional(0.001, 500),
  idleTimeout: fc.option(fractional(0.001, 300), { nil: undefined }),
  totalTimeout: fc.option(fractional(0.001, 2_000), { nil: undefined }),
  delay: fractional(0, 300),
  factor: fractional(1, 3),
  attempts: fc.integer({ min: 1, max: 5 }),
  draws: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 8 }),
  calls: fc.array(fc.array(attemptPlan, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function terminates(s: Scenario): Promise<void> {
  const { scheduler, step } = cappedScheduler(s.start, 10_000);
  const after = (ms: number) => new Promise<void>((resolve) => scheduler.schedule(() => resolve(), ms));
  let draw = 0;
  const random = () => s.draws[draw++ % s.draws.length] as number;
  const attemptsOf = new Map<string, number>();
  const tool = defineTool({
    name: "t",
    description: "",
    schema: anyArgs,
    control: { idempotent: true },
    handler: async (_args, ctx): Promise<HandlerResult> => {
      const id = ctx.toolCall.id;
      const n = attemptsOf.get(id) ?? 0;
      attemptsOf.set(id, n + 1);
      const plans = s.calls[Number(id)] as (typeof s.calls)[number];
      const plan = plans[n % plans.length] as (typeof plans)[number];
      for (const gap of plan.reports) {
        await after(gap);
        ctx.progress({ progress: 1 });
      }
      await after(plan.duration);
      return plan.fails ? error(new ToolError("handler_raised")) : ok(n);
    },
  });
  let done = false;
  let failed: unknown;
  streamToolCalls(
    s.calls.map((_, i) => ({ id: String(i), name: "t", arguments: {} })),
    [tool],
    {
      scheduler,
      toolTimeout: s.toolTimeout,
      ...(s.idleTimeout === undefined ? {} : { toolIdleTimeout: s.idleTimeout }),
      retry: { attempts: s.attempts, delay: s.delay, factor: s.factor, random, ...(s.totalTimeout === undefined ? {} : { totalTimeout: s.totalTimeout }) },
    },
  ).subscribe({ complete: () => (done = true), error: (e) => (failed = e) });
  await settle();
  while (!done && failed === undefined) {
    if (!step()) throw new Error("nothing left to run, and the batch has not completed");
    await settle();
  }
  if (failed !== undefined) throw failed;
}

const runs = Number(process.argv[2] ?? 300);
try {
  // A program of its own, out of reach of vitest's setup file: it takes the suite's seed itself.
  await fc.assert(fc.asyncProperty(scenario, terminates), { numRuns: runs, seed: suiteSeed() });
  console.log(`ok: ${runs} runs terminated`);
} catch (e) {
  console.log(String(e instanceof Error ? e.message : e));
  process.exitCode = 1;
}
