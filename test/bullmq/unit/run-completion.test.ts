import { EmptyError, type Observable, of, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import type { ToolEvent, ToolExecutionCompleted } from "../../../src/index.js";
import { completionOf } from "../../../src/bullmq/run-job.js";
import type { CallEvents } from "../../../src/internal.js";

// No Redis needed: how a job waits for its one call's answer.
/** A run whose events are `events`'s, as the worker's runner opens one: with where they go, returning its teardown. */
const runOf = (events: Observable<ToolEvent>) => (out: CallEvents) => {
  const subscription = events.subscribe(out);
  return () => subscription.unsubscribe();
};

const completed = { type: "tool_execution_completed", toolCallId: "c1", toolName: "t" } as unknown as ToolExecutionCompleted;

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

describe("completionOf", () => {
  it("answers with the completed event, and builds no error when the run then completes", async () => {
    let waiting: ReturnType<typeof completionOf> | undefined;
    // The run emits its event and completes in one go, as a job's run does: RxJS' EmptyError,
    // built at that completion and thrown away, formatted a stack per job.
    const formatted = stacksFormattedBy(() => {
      waiting = completionOf(runOf(of(completed as ToolEvent)));
    });
    expect(formatted).toBe(0);
    await expect(waiting?.completed).resolves.toBe(completed);
    waiting?.stop();
  });

  it("rejects with EmptyError when the run completes without its completed event", async () => {
    const events = new Subject<ToolEvent>();
    const waiting = completionOf(runOf(events));
    events.next({ type: "tool_execution_started", toolCallId: "c1", toolName: "t" } as unknown as ToolEvent);
    events.complete();
    await expect(waiting.completed).rejects.toBeInstanceOf(EmptyError);
  });

  it("rejects with the run's error, and stop() unsubscribes from a run still going", async () => {
    const failing = new Subject<ToolEvent>();
    const failed = completionOf(runOf(failing));
    failing.error(new Error("the job's signal"));
    await expect(failed.completed).rejects.toThrow("the job's signal");
    const going = new Subject<ToolEvent>();
    const waiting = completionOf(runOf(going));
    expect(going.observed).toBe(true);
    waiting.stop();
    waiting.stop();
    expect(going.observed).toBe(false);
  });
});
