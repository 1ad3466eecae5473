import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JobSignal } from "../../../src/bullmq/job-signal.js";
import { defineTool, ok, runToolCalls } from "../../../src/index.js";
import { sleep } from "../../../src/util/sleep.js";

// No Redis needed: the worker's stand-in for an AbortSignal must behave as one where the runner reads it.
describe("JobSignal", () => {
  it("calls each listener once with the first reason, not a removed one, and none added after it aborted", () => {
    const signal = new JobSignal();
    const heard: unknown[] = [];
    const kept = (): void => void heard.push(["kept", signal.reason]);
    const removed = (): void => void heard.push("removed");
    signal.addEventListener("abort", kept);
    signal.addEventListener("abort", removed);
    signal.removeEventListener("abort", removed);
    const reason = new Error("stop");
    signal.abort(reason);
    signal.abort(new Error("again"));
    signal.addEventListener("abort", () => heard.push("late"));
    expect(heard).toEqual([["kept", reason]]);
    expect(signal.aborted).toBe(true);
  });

  it("throws from throwIfAborted as an AbortSignal does, and stops a sleep (a producer's lease wait) with its reason", async () => {
    const job = new JobSignal();
    const controller = new AbortController();
    expect(() => job.throwIfAborted()).not.toThrow();
    const reason = new Error("stop");
    const sleeping = sleep(60_000, job.asAbortSignal());
    job.abort(reason);
    controller.abort(reason);
    expect(() => job.throwIfAborted()).toThrow(reason);
    expect(() => controller.signal.throwIfAborted()).toThrow(reason);
    await expect(sleeping).rejects.toBe(reason);
    await expect(sleep(60_000, job.asAbortSignal())).rejects.toBe(reason);
  });

  it("calls its listeners as an AbortSignal does, in order, each once, whatever was added and removed before", () => {
    const opArb = fc.record({ add: fc.boolean(), listener: fc.integer({ min: 0, max: 2 }) });
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 12 }), (ops) => {
        const heard = { job: [] as number[], real: [] as number[] };
        const listenersOf = (into: number[]) => [0, 1, 2].map((n) => () => void into.push(n));
        const job = new JobSignal();
        const controller = new AbortController();
        const jobListeners = listenersOf(heard.job);
        const realListeners = listenersOf(heard.real);
        for (const { add, listener } of ops) {
          const method = add ? "addEventListener" : "removeEventListener";
          job[method]("abort", jobListeners[listener] as () => void);
          controller.signal[method]("abort", realListeners[listener] as () => void);
        }
        job.abort("stop");
        controller.abort("stop");
        expect(heard.job).toEqual(heard.real);
      }),
    );
  });

  it("stops a run as an AbortSignal does: the runner's handler sees its ctx.signal abort with the reason", async () => {
    const signal = new JobSignal();
    let seen: unknown;
    const tool = defineTool({
      name: "wait",
      description: "",
      schema: z.object({}),
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            seen = ctx.signal.reason;
            resolve(ok("stopped"));
          });
          signal.abort(new Error("cancelled by the producer: test"));
        }),
    });
    await expect(runToolCalls([{ id: "c", name: "wait", arguments: {} }], [tool], { signal: signal.asAbortSignal() })).rejects.toThrow(
      "cancelled by the producer: test",
    );
    expect(String(seen)).toContain("cancelled by the producer: test");
  });
});
