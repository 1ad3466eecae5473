import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../../src/index.js";
import { jobIdOf } from "../../../src/bullmq/job-id.js";
import { type CallJob, jobProcessor } from "../../../src/bullmq/job-processor.js";
import type { LaneLimit } from "../../../src/bullmq/lanes.js";
import { callJobRunner } from "../../../src/bullmq/run-job.js";
import { WorkerCancels } from "../../../src/bullmq/worker-cancels.js";

// No Redis needed: what a worker does around one job's run, with its Redis parts recorded.
function processorOf(handler: (args: { i: number }) => unknown) {
  const tool = defineTool({ name: "t", description: "", schema: z.object({ i: z.number() }), handler: handler as never });
  const runJob = callJobRunner({ tools: [tool], executor: undefined, validateArguments: true, context: {}, settleGrace: 100 });
  const did: string[] = [];
  const cancels = new WorkerCancels(1_000);
  cancels.subscribed();
  const handlers = new Set<Promise<unknown>>();
  const process = jobProcessor({
    runJob,
    cancels,
    handlers,
    heartbeats: { start: (id) => void did.push(`beat ${id}`), stop: (id) => void did.push(`unbeat ${id}`) },
    lanes: {
      hold: (id, lanes) => void (lanes.length > 0 && did.push(`hold ${id}`)),
      forget: (id) => void did.push(`forget ${id}`),
      release: async (id) => void did.push(`release ${id}`),
    },
    readMarker: async () => null,
  });
  return { process, did, cancels, handlers };
}

const jobOf = (i: number, lanes?: readonly LaneLimit[]): CallJob =>
  ({
    id: jobIdOf("k", `c${i}`, 1),
    name: "toolrx.call",
    data: { v: 2, name: "t", args: { i }, ...(lanes === undefined ? {} : { lanes }) },
    updateProgress: async () => {},
  }) as unknown as CallJob;

describe("jobProcessor", () => {
  it("returns a job answered as it opened as a plain value, and tracks it nowhere (no heartbeat, no cancel to hear)", () => {
    const { process, did, cancels } = processorOf(({ i }) => ok(i));
    const returned = process(jobOf(1));
    expect(returned).toEqual({ v: 2, ok: 1 });
    expect(did).toEqual([`forget ${jobIdOf("k", "c1", 1)}`]);
    expect(cancels.runningIds()).toEqual([]);
  });

  it("tracks a job whose handler runs on past its start until it ends, and frees its lanes", async () => {
    const { process, did, cancels, handlers } = processorOf(async ({ i }) => ok(i));
    const id = jobIdOf("k", "c2", 1);
    const returned = process(jobOf(2, [{ lane: "global", limit: 1 }]));
    expect(returned).toBeInstanceOf(Promise);
    expect(cancels.runningIds()).toEqual([id]);
    expect(handlers.size).toBe(1);
    await expect(returned).resolves.toEqual({ v: 2, ok: 2 });
    expect(did).toEqual([`hold ${id}`, `beat ${id}`, `unbeat ${id}`, `release ${id}`]);
    expect(cancels.runningIds()).toEqual([]);
    expect(handlers.size).toBe(0);
  });

  it("waits for a sync job's lanes to be freed before it returns", async () => {
    const { process, did } = processorOf(({ i }) => ok(i));
    const id = jobIdOf("k", "c3", 1);
    const returned = process(jobOf(3, [{ lane: "global", limit: 1 }]));
    expect(returned).toBeInstanceOf(Promise);
    await expect(returned).resolves.toEqual({ v: 2, ok: 3 });
    expect(did).toEqual([`hold ${id}`, `release ${id}`]);
  });

  it("answers a job cancelled before it started without running its handler", () => {
    let runs = 0;
    const { process, cancels } = processorOf(({ i }) => {
      runs++;
      return ok(i);
    });
    cancels.heard(jobIdOf("k", "c4", 1), "stop");
    expect(process(jobOf(4))).toEqual({ v: 2, cancelled: "stop", started: false });
    expect(runs).toBe(0);
  });

  it("fails a job whose run throws as it opens, and untracks it", async () => {
    const { process, cancels } = processorOf(({ i }) => ok(i));
    const job = { ...jobOf(5), data: { v: 2, name: "t", args: { i: 5 }, raw: 42 } } as unknown as CallJob;
    const returned = process(job);
    await expect(Promise.resolve(returned)).rejects.toThrow();
    expect(cancels.runningIds()).toEqual([]);
  });
});
