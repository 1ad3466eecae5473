/**
 * The one-call runner (`SingleCall`, what a BullMQ worker runs each job's call with) against the
 * pool's: for any one call, tool and run options, `streamOneCall(call, …)` and
 * `streamToolCalls([call], …)` tell the same story at the same virtual times: the same events,
 * reports (progress, late settlements), handler starts and aborts, and the same end of the
 * stream. Tools return, throw, answer errors, time out (run and tool deadlines, idle deadlines),
 * are retried, settle late after an abort, run under hooks; the call is cancelled by id (before
 * or after it starts), unsubscribed, aborted by the run's signal, or its cancel source errors.
 */
import fc from "fast-check";
import { type Observable, type Observer, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, error, ok, streamToolCalls, type CallHook, type HandlerResult, type RunOptions, type ToolEvent } from "../../src/index.js";
import { streamOneCall } from "../../src/run/prepared-call.js";
import { manualScheduler } from "../support/manual-scheduler.js";

type Step = { kind: "ok" | "throw" | "own" | "hang" } | { kind: "async-ok" | "async-throw"; ms: number; beats: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>({ kind: "ok" }, { kind: "throw" }, { kind: "own" }, { kind: "hang" }),
  fc.record({
    kind: fc.constantFrom("async-ok" as const, "async-throw" as const),
    ms: fc.integer({ min: 0, max: 120 }),
    beats: fc.integer({ min: 0, max: 2 }),
  }),
);

const interferenceArb = fc.oneof(
  fc.constant({ kind: "none" as const }),
  fc.record({
    kind: fc.constant("cancel" as const),
    at: fc.integer({ min: 0, max: 150 }),
    otherId: fc.boolean(),
    reason: fc.option(fc.constant("user said stop"), { nil: undefined }),
    // Emitted as the cancel source is subscribed (before the call starts), or by the consumer as it sees `started`.
    when: fc.constantFrom("at" as const, "subscribe" as const, "started" as const),
  }),
  fc.record({ kind: fc.constantFrom("unsubscribe" as const, "abort" as const, "cancel-error" as const), at: fc.integer({ min: 0, max: 150 }) }),
);

const specArb = fc.record({
  known: fc.boolean(),
  valid: fc.boolean(),
  attempts: fc.array(stepArb, { minLength: 1, maxLength: 3 }),
  settleOnAbort: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
  retry: fc.option(fc.record({ attempts: fc.integer({ min: 2, max: 3 }), delay: fc.integer({ min: 0, max: 30 }) }), { nil: undefined }),
  toolTimeout: fc.option(fc.integer({ min: 10, max: 150 }), { nil: undefined }),
  controlTimeout: fc.option(fc.integer({ min: 10, max: 150 }), { nil: undefined }),
  idleTimeout: fc.option(fc.integer({ min: 10, max: 80 }), { nil: undefined }),
  settleGrace: fc.integer({ min: 1, max: 120 }),
  hook: fc.constantFrom("none", "refuses", "throws", "replaces", "async-before"),
  onToolError: fc.constantFrom<RunOptions["onToolError"]>(undefined, "continue", "halt"),
  onUnknownTool: fc.constantFrom<"answer" | "fail">("answer", "fail"),
  interference: interferenceArb,
});

type Spec = typeof specArb extends fc.Arbitrary<infer S> ? S : never;
type Runner = (
  call: { id: string; name: string; arguments: Record<string, unknown> },
  tools: ReturnType<typeof toolOf>[],
  options: RunOptions,
) => Observable<ToolEvent>;

/** Errors as what they say (class, message, own fields), so two runs' fresh instances compare. */
function plain(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) return "[cycle]";
  seen.add(value);
  if (value instanceof Error || value instanceof DOMException) {
    const own = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, seen)]));
    return { class: value.constructor.name, name: value.name, message: value.message, cause: plain((value as { cause?: unknown }).cause, seen), ...own };
  }
  if (Array.isArray(value)) return value.map((v) => plain(v, seen));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, seen)]));
}

function toolOf(spec: Spec, log: unknown[], now: () => number, schedule: (work: () => void, ms: number) => void) {
  let attempt = 0;
  const control = {
    ...(spec.retry === undefined ? {} : { idempotent: true, retry: { attempts: spec.retry.attempts, delay: spec.retry.delay, jitter: false } }),
    ...(spec.controlTimeout === undefined ? {} : { timeout: spec.controlTimeout }),
    ...(spec.idleTimeout === undefined ? {} : { idleTimeout: spec.idleTimeout }),
  };
  const hooks: CallHook[] | undefined = {
    none: undefined,
    refuses: [{ before: () => error("the hook says no") }],
    throws: [
      {
        after: () => {
          throw new Error("the after hook broke");
        },
      },
    ],
    replaces: [{ after: (result: HandlerResult) => (result.type === "ok" ? ok({ replaced: result.value }) : undefined) }],
    "async-before": [{ before: () => new Promise<undefined>((resolve) => schedule(() => resolve(undefined), 5)) }],
  }[spec.hook];
  return defineTool({
    name: "t",
    description: "",
    schema: z.object({ i: z.number() }),
    ...(Object.keys(control).length === 0 ? {} : { control }),
    ...(hooks === undefined ? {} : { hooks }),
    handler: ({ i }, ctx): HandlerResult | Promise<HandlerResult> => {
      const n = ++attempt;
      const step = spec.attempts[Math.min(n, spec.attempts.length) - 1] as Step;
      log.push({ at: now(), handler: n, i });
      let settle: ((result: HandlerResult) => void) | undefined;
      ctx.signal.addEventListener("abort", () => {
        log.push({ at: now(), aborted: n, reason: plain(ctx.signal.reason) });
        if (spec.settleOnAbort !== undefined) schedule(() => settle?.(ok(`late ${n}`)), spec.settleOnAbort);
      });
      switch (step.kind) {
        case "ok":
          return ok(i);
        case "throw":
          throw new Error(`attempt ${n} threw`);
        case "own":
          return error(`attempt ${n} says no`);
        case "hang":
          return new Promise<HandlerResult>((resolve) => (settle = resolve));
        default:
          return new Promise<HandlerResult>((resolve, reject) => {
            settle = resolve;
            for (let k = 1; k <= step.beats; k++) schedule(() => ctx.progress({ progress: k, total: step.beats }), (step.ms * k) / (step.beats + 1));
            schedule(() => (step.kind === "async-ok" ? resolve(ok(i)) : reject(new Error(`attempt ${n} rejected`))), step.ms);
          });
      }
    },
  });
}

/** Run the spec's call with `runner` in a world of its own (virtual time from 0) and record everything it says. */
async function story(spec: Spec, runner: Runner): Promise<unknown[]> {
  const scheduler = manualScheduler();
  const log: unknown[] = [];
  const now = () => scheduler.now();
  const schedule = (work: () => void, ms: number) => void scheduler.schedule(work, ms);
  const tool = toolOf(spec, log, now, schedule);
  const controller = new AbortController();
  const { interference } = spec;
  const cancel = new Subject<string | { toolCallId: string; reason?: string }>();
  const id = "c1";
  const request = (x: Extract<Spec["interference"], { kind: "cancel" }>) => {
    const toolCallId = x.otherId ? "c2" : id;
    return x.reason === undefined ? toolCallId : { toolCallId, reason: x.reason };
  };
  const cancelSource =
    interference.kind === "cancel" && interference.when === "subscribe"
      ? {
          subscribe: (observer: Partial<Observer<unknown>>) => {
            const subscription = cancel.subscribe(observer as never);
            cancel.next(request(interference));
            return subscription;
          },
        }
      : cancel;
  const options: RunOptions = {
    scheduler,
    signal: controller.signal,
    cancel: cancelSource as RunOptions["cancel"],
    settleGrace: spec.settleGrace,
    onUnknownTool: spec.onUnknownTool,
    onCallReport: (report) => log.push({ at: now(), report: plain(report) }),
    ...(spec.toolTimeout === undefined ? {} : { toolTimeout: spec.toolTimeout }),
    ...(spec.onToolError === undefined ? {} : { onToolError: spec.onToolError }),
  };
  const call = { id, name: spec.known ? "t" : "missing", arguments: spec.valid ? { i: 7 } : { i: "seven" } };
  let events: Observable<ToolEvent>;
  try {
    events = runner(call, [tool], options);
  } catch (e) {
    return [{ threw: plain(e) }];
  }
  const subscription = events.subscribe({
    next: (event) => {
      log.push({ at: now(), event: plain(event) });
      if (event.type === "tool_execution_started" && interference.kind === "cancel" && interference.when === "started") {
        cancel.next(request(interference));
        // What the consumer does after its cancel returns comes before the stream's end, as it would with the pool.
        log.push({ at: now(), cancelReturned: true });
      }
    },
    error: (e: unknown) => log.push({ at: now(), error: plain(e) }),
    complete: () => log.push({ at: now(), complete: true }),
  });
  if (interference.kind !== "none" && !(interference.kind === "cancel" && interference.when !== "at")) {
    scheduler.schedule(() => {
      if (interference.kind === "cancel") cancel.next(request(interference));
      else if (interference.kind === "unsubscribe") subscription.unsubscribe();
      else if (interference.kind === "abort") controller.abort(new Error("the run was aborted"));
      else cancel.error(new Error("the cancel source failed"));
    }, interference.at);
  }
  await scheduler.advance(2_000);
  subscription.unsubscribe();
  log.push({ live: scheduler.live });
  return log;
}

describe("streamOneCall", () => {
  it("tells the same story as a one-call streamToolCalls, whatever the call, its tool and the run do", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const pooled = await story(spec, (call, tools, options) => streamToolCalls([call], tools, options));
        const single = await story(spec, streamOneCall);
        expect(single).toEqual(pooled);
      }),
      { numRuns: 200 },
    );
  });
});
