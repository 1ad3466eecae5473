import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JobSignal } from "../../../src/bullmq/job-signal.js";
import { defineTool, ok, runToolCalls } from "../../../src/index.js";

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
