import { EmptyError, type Observable, of, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultExecutor, defineTool, ok, type ToolEvent, type ToolExecutionCompleted } from "../../../src/index.js";
import { readCallJob } from "../../../src/bullmq/call-job.js";
import { jobIdOf } from "../../../src/bullmq/job-id.js";
import { JobRun } from "../../../src/bullmq/job-run.js";
import { callJobRunner } from "../../../src/bullmq/run-job.js";

// No Redis needed: how a job waits for its one call's answer.
const remoteCall = readCallJob("toolrx.call", jobIdOf("k", "c1", 1), { v: 2, name: "t", args: {} });

/** A job's run whose events are `events`'s, opened as the worker's runner opens one. */
function runOf(events: Observable<ToolEvent>): JobRun {
  const run = new JobRun(defaultExecutor, remoteCall, () => {});
  const subscription = events.subscribe(run);
  run.opened(() => subscription.unsubscribe());
  return run;
}

const completed = { type: "tool_execution_completed", toolCallId: "c1", toolName: "t", result: ok(1) } as unknown as ToolExecutionCompleted;

/** How many stack traces were formatted while `run` ran: what building an Error with its stack costs a job. */
function stacksFormattedBy(run: () => void): number {
  const original = Error.prepareStackTrace;
  let formatted = 0;
  Error.prepareStackTrace = (error, frames) => {
    formatted++;
    return original === undefined ? `${error}\n${frames.map((f) => `    at ${f}`).join("\n")}` : original(error, frames);
  };
  try {
    run();
  } finally {
    Error.prepareStackTrace = original;
  }
  return formatted;
}

describe("JobRun", () => {
  it("answers with the completed event, and builds no error when the run then completes", async () => {
    let run: JobRun | undefined;
    // The run emits its event and completes in one go, as a job's run does: RxJS' EmptyError,
    // built at that completion and thrown away, formatted a stack per job.
    const formatted = stacksFormattedBy(() => {
      run = runOf(of(completed as ToolEvent));
    });
    expect(formatted).toBe(0);
    await expect(run?.completion()).resolves.toBe(completed);
    run?.stop();
  });

  it("rejects with EmptyError when the run completes without its completed event", async () => {
    const events = new Subject<ToolEvent>();
    const run = runOf(events);
    const waiting = run.completion();
    events.next({ type: "tool_execution_started", toolCallId: "c1", toolName: "t" } as unknown as ToolEvent);
    events.complete();
    await expect(waiting).rejects.toBeInstanceOf(EmptyError);
    await expect(run.completion()).rejects.toBeInstanceOf(EmptyError);
  });

  it("rejects with the run's error, and stop() unsubscribes from a run still going", async () => {
    const failing = new Subject<ToolEvent>();
    const failed = runOf(failing);
    failing.error(new Error("the job's signal"));
    await expect(failed.completion()).rejects.toThrow("the job's signal");
    const going = new Subject<ToolEvent>();
    const run = runOf(going);
    expect(going.observed).toBe(true);
    run.stop();
    run.stop();
    expect(going.observed).toBe(false);
  });

  it("keeps the completed event when the run errs after it", async () => {
    const events = new Subject<ToolEvent>();
    const run = runOf(events);
    events.next(completed);
    events.error(new Error("late"));
    await expect(run.completion()).resolves.toBe(completed);
  });
});

describe("callJobRunner's answer", () => {
  const env = (handler: (args: { i: number }) => unknown) => ({
    tools: [defineTool({ name: "t", description: "", schema: z.object({ i: z.number() }), handler: handler as never })],
    executor: undefined,
    validateArguments: true,
    context: {},
    settleGrace: 100,
  });
  const job = readCallJob("toolrx.call", jobIdOf("k", "c1", 1), { v: 2, name: "t", args: { i: 7 } });

  it("is the answer itself, not a promise, for a handler that returns without one", () => {
    const answer = callJobRunner(env(({ i }) => ok(i)))(job, new AbortController().signal, () => {});
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual({ result: { type: "ok", value: 7 } });
  });

  it("is a promise of the same answer for a handler that returns one", async () => {
    const answer = callJobRunner(env(async ({ i }) => ok(i)))(job, new AbortController().signal, () => {});
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toEqual({ result: { type: "ok", value: 7 } });
  });
});
