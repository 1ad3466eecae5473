import { afterAll, describe, expect, it } from "vitest";
import { type LeaseEvent, SandboxPool } from "../../src/code-mode/sandbox-pool.js";

const limits = {
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 512 * 1024,
  cpuMs: 1_000,
  maxCalls: 500,
  maxArgumentBytes: 1024,
  maxInFlightBytes: 65_536,
  maxResultBytes: 1024,
};
const start = (script: string) => ({ script, names: ["t"], limits, now: 0, seed: 1 });

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
});
