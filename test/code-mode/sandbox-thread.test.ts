import { afterAll, describe, expect, it } from "vitest";
import { SandboxThread } from "../../src/code-mode/sandbox-worker.js";
import type { LeaseEvent } from "../../src/code-mode/sandbox-pool.js";

import { scriptStart } from "./helpers.js";

describe("the sandbox thread", () => {
  const threads: SandboxThread[] = [];
  afterAll(() => Promise.all(threads.map((t) => t.worker.terminate())));

  describe("when guest jobs are queued behind the job that ends the script", () => {
    it("runs none of them, so the thread says stopped at once and is lent again instead of replaced", async () => {
      // The hunt's find (seed 1409722206, path 50:0): a job one tick behind the script's end loops
      // on concat and catches each out-of-memory. Each turn is a long native call and few branches,
      // so QuickJS asks the interrupt handler only after minutes: run in the end's batch of jobs,
      // it kept the thread busy past the pool's stop grace, and the next script waited for the
      // grace and a new thread (over 8 s on a starved machine) inside its own deadline.
      const thread = new SandboxThread(() => undefined);
      threads.push(thread);
      await thread.ready;
      const heard: LeaseEvent[] = [];
      const stopped = new Promise<void>((resolve) => {
        thread.listener = (message) => {
          heard.push(message);
          if (message.type === "done") thread.worker.postMessage({ type: "stop" });
          if (message.type === "stopped") resolve();
        };
      });
      const late = "for (;;) { try { let a = [1]; for (;;) a = a.concat(a); } catch {} }";
      const script = `Promise.resolve().then(() => null).then(() => { ${late} }); return 1;`;
      thread.worker.postMessage({ type: "run", ...scriptStart(script) });
      // Without the fix the thread answers stop only once the loop is interrupted, minutes later:
      // 10 s is a wide margin for a thread that has nothing left to run.
      const bound = new Promise<"still busy">((resolve) => setTimeout(() => resolve("still busy"), 10_000).unref());
      expect(await Promise.race([stopped.then(() => "stopped" as const), bound])).toBe("stopped");
      expect(heard).toEqual([{ type: "done", ok: true, value: "1" }, { type: "stopped" }]);
    }, 20_000);
  });
});
