import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JobSignal } from "../../../src/bullmq/job-signal.js";
import { WorkerCancels } from "../../../src/bullmq/worker-cancels.js";

// No Redis needed: a worker starts a job without reading its cancel marker, so a cancel that
// reaches it over the channel in any order with the job's start (before BullMQ hands the job
// over, or while it runs) must still stop it, and one heard before the start must keep its
// handler from running at all.
const KEEP = 10_000;

type Step = { kind: "cancel" | "begin" | "end"; job: number } | { kind: "noise"; job: number } | { kind: "wait"; ms: number };

/** Each job's begin before its end, its cancel anywhere (or nowhere), interleaved with other jobs' and noise. */
const scenario = fc
  .array(fc.record({ cancelled: fc.boolean(), noise: fc.nat(3) }), { minLength: 1, maxLength: 6 })
  .chain((jobs) => {
    const tracks = jobs.map((j, job) => {
      const steps: Step[] = [
        { kind: "begin", job },
        { kind: "end", job },
      ];
      return fc.nat(2).map((at) => {
        const withCancel = [...steps];
        if (j.cancelled) withCancel.splice(at, 0, { kind: "cancel", job });
        for (let n = 0; n < j.noise; n++) withCancel.push({ kind: "noise", job });
        return withCancel;
      });
    });
    return fc.tuple(...tracks);
  })
  .chain((tracks) =>
    fc
      .shuffledSubarray(
        tracks.flatMap((t, i) => t.map((_, k) => [i, k] as const)),
        { minLength: tracks.flat().length },
      )
      .map((order) => ({ tracks, order })),
  )
  .chain(({ tracks, order }) =>
    fc.array(fc.integer({ min: 0, max: Math.floor(KEEP / 80) }), { minLength: order.length, maxLength: order.length }).map((waits) => {
      // Each track's own order kept (begin before end), tracks interleaved as `order` says; the
      // waits add up to less than the keep (a job starts within it of its take).
      const next = tracks.map(() => 0);
      const steps: Step[] = [];
      order.forEach(([track], i) => {
        steps.push({ kind: "wait", ms: waits[i] as number });
        const at = next[track] as number;
        next[track] = at + 1;
        steps.push((tracks[track] as Step[])[at] as Step);
      });
      return steps;
    }),
  );

describe("WorkerCancels", () => {
  it("stops every job whose cancel is heard before it ends: not started when heard before its start, aborted when after", () => {
    fc.assert(
      fc.property(scenario, (steps) => {
        let now = 0;
        const cancels = new WorkerCancels(KEEP, () => now);
        cancels.subscribed();
        const state = new Map<
          number,
          { heard: "before" | "during" | "after" | "never"; began?: { signal: { aborted: boolean }; cancelled: string | undefined } }
        >();
        for (const step of steps) {
          if (step.kind === "wait") {
            now += step.ms;
            continue;
          }
          const s = state.get(step.job) ?? { heard: "never" };
          state.set(step.job, s);
          const id = `job-${step.job}`;
          if (step.kind === "noise") cancels.heard(`other-${step.job}-${now}`, "not this one");
          else if (step.kind === "begin") {
            const cancelled = cancels.take(id);
            const signal = new JobSignal();
            cancels.track(id, signal);
            s.began = { signal, cancelled };
          } else if (step.kind === "end") cancels.end(id);
          else {
            s.heard = s.began === undefined ? "before" : cancels.runningIds().includes(id) ? "during" : "after";
            cancels.heard(id, `stop ${step.job}`);
          }
        }
        for (const [job, s] of state) {
          const began = s.began as { signal: { aborted: boolean }; cancelled: string | undefined };
          expect(began.cancelled).toBe(s.heard === "before" ? `stop ${job}` : undefined);
          expect(began.signal.aborted).toBe(s.heard === "during");
        }
        expect(cancels.runningIds()).toEqual([]);
      }),
    );
  });

  it("trusts the channel only once it has been up longer than a job takes from its take to its start", () => {
    let now = 1_000;
    const cancels = new WorkerCancels(KEEP, () => now);
    expect(cancels.channelTrusted()).toBe(false);
    cancels.subscribed();
    expect(cancels.channelTrusted()).toBe(true);
    cancels.unsubscribed();
    expect(cancels.channelTrusted()).toBe(false);
    now += 5;
    cancels.subscribed();
    // Up again, though a cancel published while it was down may be the one of a job starting now.
    expect(cancels.channelTrusted()).toBe(false);
    now += KEEP;
    expect(cancels.channelTrusted()).toBe(false);
    now += 6;
    expect(cancels.channelTrusted()).toBe(true);
  });

  it("forgets a heard cancel for a job that never started here once it is older than the keep", () => {
    let now = 0;
    const cancels = new WorkerCancels(KEEP, () => now);
    cancels.heard("elsewhere", "taken by another worker");
    now += KEEP + 1;
    cancels.heard("later", "another");
    expect(cancels.take("elsewhere")).toBeUndefined();
    expect(cancels.take("later")).toBe("another");
    expect(cancels.take("later")).toBeUndefined();
  });
});
