/**
 * Property tests of the runner (`streamToolCalls`, `runToolCalls`): random batches of 1..40 calls
 * mixing every handler behaviour, random `onToolError` policies, `maxConcurrency` and
 * `toolTimeout`, checked against CONTRACT.md §2, §4 and §6.
 *
 * Timing is never asserted, only what follows from it deterministically:
 * - "async" handlers settle in microtasks, which always run before any timer, so they never time out;
 * - "slow" handlers start their sleep in a microtask after they are called, i.e. after the runner
 *   has armed the deadline (it does so synchronously when the executor hands back a promise), and
 *   sleep `toolTimeout + 3` ms: Node fires timers in order of due time, so the deadline always
 *   wins, however loaded the machine;
 * - "never" and "late" handlers settle only after their `ctx.signal` aborts.
 * So every call's outcome is a function of the generated batch, and two runs of one batch give the
 * same messages.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runToolCalls } from "../../../src/index.js";

import { type BatchSpec, batchArb } from "./arbitraries.js";
import { Harness } from "./harness.js";
import { TOOLS, type Cut, type End, type StreamRun, withWatchdog, observeStream, settleAll, recordingUnhandled } from "./observe.js";
import { expectEventShape, expectHandlerBounds, expectNothingLeft, expectCutRespected, expectCompletedStream } from "./expect-stream.js";

const RUNS = { unsubscribe: 120, abort: 120 } as const;
const TIMEOUT = 120_000;

describe("the runner, over random batches of 1..40 calls mixing every handler behaviour, policy, maxConcurrency and toolTimeout", () => {
  describe("a batch cut short", () => {
    /**
     * Where to cut: after the k-th event, or inside the m-th handler to start, with k (or m) spread
     * over 1..3n+1 so some runs are never cut. Drawn as a fraction (no `chain`) so it shrinks.
     */
    const cutArb = (action: Cut["action"]): fc.Arbitrary<readonly [BatchSpec, Cut]> =>
      fc
        .tuple(batchArb, fc.constantFrom<Cut["trigger"]>("event", "handler"), fc.integer({ min: 0, max: 999 }))
        .map(([spec, trigger, permille]) => [spec, { trigger, action, after: 1 + Math.floor((permille * (3 * spec.behaviours.length + 1)) / 1000) }]);

    it(
      "unsubscribing after any number of events, or from inside a handler, aborts every running handler's ctx.signal, starts no handler, and leaves no timer or listener behind",
      async () => {
        await fc.assert(
          fc.asyncProperty(cutArb("unsubscribe"), async ([spec, cut]) => {
            const h = new Harness(spec);
            await recordingUnhandled([h], async () => {
              const run = await observeStream(h, cut);
              const startsAtCut = h.handlerStarts;
              await settleAll(h);
              expect(h.unhandled, "unhandled rejections").toEqual([]);
              if (run.cutAt === undefined) {
                expectCompletedStream(h, run);
                return;
              }
              expect(run.end, "the consumer's side completes (takeUntil)").toStrictEqual({ kind: "complete" });
              expectNothingLeft(h, "right after unsubscribing", run.timersAtEnd, run.listenersAtEnd);
              expect(h.handlerStarts, "no handler starts once unsubscribed").toBe(startsAtCut);
              expectCutRespected(h, run.cutAt);
              expectEventShape(h, run.events, false);
              expectHandlerBounds(h);
              expectNothingLeft(h, "once every handler settled");
            });
          }),
          { numRuns: RUNS.unsubscribe },
        );
      },
      TIMEOUT,
    );

    /** runToolCalls shows no events, so it is only ever cut from inside a handler. */
    const abortArb = fc
      .tuple(cutArb("abort"), fc.constantFrom("stream" as const, "runToolCalls" as const))
      .map(([[spec, cut], via]) => [spec, via === "stream" ? cut : { ...cut, trigger: "handler" as const }, via] as const);

    it(
      "aborting opts.signal after any number of events, or from inside a handler, errors the stream (or rejects runToolCalls) with its reason, aborts every running handler's ctx.signal, starts no handler, and leaves no timer or listener behind",
      async () => {
        await fc.assert(
          fc.asyncProperty(abortArb, async ([spec, cut, via]) => {
            const h = new Harness(spec);
            await recordingUnhandled([h], async () => {
              let run: StreamRun;
              if (via === "stream") {
                run = await observeStream(h, cut);
              } else {
                let cutAt: number | undefined;
                h.onHandlerStart = (count) => {
                  if (count === cut.after && cutAt === undefined) {
                    cutAt = h.tick();
                    h.controller.abort(h.abortReason);
                  }
                };
                const end = await withWatchdog(
                  "runToolCalls",
                  runToolCalls(h.calls, TOOLS, h.options()).then(
                    (): End => ({ kind: "complete" }),
                    (e: unknown): End => ({ kind: "error", error: e }),
                  ),
                );
                run = { events: [], end, cutAt, timersAtEnd: h.scheduler.live, listenersAtEnd: h.listeners.live };
              }
              const startsAtCut = h.handlerStarts;
              await settleAll(h);
              expect(h.unhandled, "unhandled rejections").toEqual([]);
              if (run.cutAt === undefined) {
                if (via === "stream") expectCompletedStream(h, run);
                else expect(run.end, "runToolCalls resolves").toStrictEqual({ kind: "complete" });
                return;
              }
              expect(run.end.kind, `the ${via === "stream" ? "stream errors" : "promise rejects"}`).toBe("error");
              if (run.end.kind === "error") expect(run.end.error, "... with the signal's reason").toBe(h.abortReason);
              expectNothingLeft(h, "right after the abort", run.timersAtEnd, run.listenersAtEnd);
              expect(h.handlerStarts, "no handler starts once aborted").toBe(startsAtCut);
              expectCutRespected(h, run.cutAt);
              expectEventShape(h, run.events, false);
              expectHandlerBounds(h);
              expectNothingLeft(h, "once every handler settled");
            });
          }),
          { numRuns: RUNS.abort },
        );
      },
      TIMEOUT,
    );
  });
});
