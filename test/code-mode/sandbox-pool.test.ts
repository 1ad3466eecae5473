import { afterAll, describe, expect, it } from "vitest";
import { type LeaseEvent, SandboxPool } from "../../src/code-mode/sandbox-pool.js";

import { scriptStart as start } from "./helpers.js";

describe("SandboxPool", () => {
  const pool = new SandboxPool(1);
  afterAll(() => pool.close());

  it("lends a released thread again only after its stopped script's last messages, so none reaches the next script", async () => {
    for (let round = 0; round < 5; round++) {
      // A script that posts many calls in one slice, released on its first: the rest are still on their way.
      const first = await pool.lease();
      await new Promise<void>((resolve) =>
        first.start(
          start("await Promise.all(Array.from({ length: 200 }, (_, n) => tools.t({ n }))); return 0;"),
          (m) => {
            if (m.type === "call") {
              first.release();
              resolve();
            }
          },
          5_000,
        ),
      );
      // The next script starts at once, with no turn of the event loop in between.
      const next = await pool.lease();
      const seen: LeaseEvent[] = [];
      const done = await new Promise<LeaseEvent>((resolve) =>
        next.start(
          start("return 42;"),
          (m) => {
            seen.push(m);
            if (m.type === "done") resolve(m);
          },
          5_000,
        ),
      );
      next.release();
      expect(done).toEqual({ type: "done", ok: true, value: "42" });
      expect(seen.filter((m) => m.type === "call")).toEqual([]);
    }
  });

  it("does not take a thread for stuck when its answer waits behind a host that was busy past the deadline", async () => {
    // The hunt's find (seed 349029457, path 96): a trivial script after a hostile one ended
    // cpu_time. Node runs a due timer before it reads a worker's messages, so a host blocked past
    // a slice's deadline (here 2 s of synchronous work against 50 ms) killed a thread whose
    // "done" was already waiting.
    const lease = await pool.lease();
    const heard = new Promise<LeaseEvent>((resolve) => lease.start(start("return 1;"), (m) => m.type !== "idle" && resolve(m), 50));
    // The host is busy after the event loop's poll, so its next step is the due timers, then the messages.
    setImmediate(() => {
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        // Meanwhile the thread answers: 1 ms of its CPU in 2 s, a wide margin.
      }
    });
    expect(await heard).toEqual({ type: "done", ok: true, value: "1" });
    lease.release();
  });
});
