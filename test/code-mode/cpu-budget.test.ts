import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cpuBudget } from "../../src/code-mode/cpu-budget.js";
import { threadCpuClock } from "../../src/code-mode/thread-cpu-clock.js";

/** A thread on a machine of fake clocks: wall time passes, and the thread runs on a CPU for a share of it. */
function fakeThread() {
  const t = { wall: 0, ran: 0, cpu: 0, reads: [] as number[], failing: false };
  const clock = {
    source: "fake",
    read: () => {
      t.reads.push(t.wall);
      return t.failing ? Number.NaN : t.cpu;
    },
  };
  return { t, clock, wallNow: () => t.wall };
}

describe("cpuBudget", () => {
  it("for any mix of running and waiting at any share of a CPU, ends a script only past its CPU limit, and at most 2 ms of CPU after it", () => {
    // Steps of up to 5 ms (the interrupt handler is asked far more often), enough of them to pass the limit.
    const step = fc.record({
      ms: fc.integer({ min: 0, max: 5_000 }).map((us) => us / 1_000),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
      waits: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.array(step, { minLength: 100, maxLength: 600 }), (limit, steps) => {
        const { t, clock, wallNow } = fakeThread();
        const budget = cpuBudget(limit, clock, wallNow);
        for (const { ms, share, waits } of steps) {
          t.wall += ms;
          t.cpu += ms * share;
          if (waits) continue; // the guest awaits its tools: the interrupt handler is not asked
          t.ran += ms;
          const spent = budget.spent(t.ran);
          if (spent) {
            expect(t.cpu).toBeGreaterThan(limit);
            expect(t.ran).toBeGreaterThan(limit);
            break;
          }
          // The guest's CPU time is at most its wall time and at most its thread's CPU time.
          expect(Math.min(t.ran, t.cpu)).toBeLessThan(limit + 2);
        }
        // Past the baseline, reads are at least 2 ms of wall time apart: never one per interrupt.
        const gaps = t.reads.slice(1).map((at, i) => at - (t.reads[i] as number));
        for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(2);
      }),
    );
  });

  it("reads the CPU clock a few times, not once per interrupt, for a busy loop starved to half a CPU", () => {
    const { t, clock, wallNow } = fakeThread();
    const budget = cpuBudget(1_000, clock, wallNow);
    let interrupts = 0;
    while (!budget.spent(t.wall)) {
      t.wall += 0.05;
      t.cpu += 0.025;
      interrupts++;
    }
    expect(interrupts).toBeGreaterThan(40_000);
    // The baseline, then the left budget halves with each read down to the 2 ms gap: log2(1000 / 2) + 2.
    expect(t.reads.length).toBeLessThanOrEqual(12);
    expect(t.cpu).toBeGreaterThan(1_000);
    expect(t.cpu).toBeLessThan(1_002);
    expect(budget.clock).toBe("the thread's CPU time, from fake");
  });

  it("lets wall time decide, as before, when the clock fails at the start or during the script", () => {
    const atStart = fakeThread();
    atStart.t.failing = true;
    const none = cpuBudget(100, atStart.clock, atStart.wallNow);
    expect([none.spent(100), none.spent(101), none.clock]).toEqual([false, true, "wall time: no CPU clock of the thread here"]);
    expect(cpuBudget(100, undefined, () => 0).spent(101)).toBe(true);

    const later = fakeThread();
    const budget = cpuBudget(100, later.clock, later.wallNow);
    later.t.wall = 150;
    later.t.cpu = 50;
    expect(budget.spent(150)).toBe(false);
    later.t.wall = 250;
    later.t.failing = true;
    expect(budget.spent(250)).toBe(true);
  });
});

// Linux tells a thread its CPU time in /proc/thread-self; elsewhere the clock is absent (and the budget is wall time).
describe.skipIf(process.platform !== "linux" && process.env.CI !== "true")("threadCpuClock", () => {
  const fs = { readFileSync: (path: string, encoding: "latin1") => readFileSync(path, encoding) };
  const without = (...missing: string[]) => ({
    readFileSync: (path: string, encoding: "latin1") => {
      if (missing.includes(path)) throw new Error(`ENOENT: ${path}`);
      return fs.readFileSync(path, encoding);
    },
  });
  const load = (stub: typeof fs) => (id: string) => {
    expect(id).toBe("node:fs");
    return stub;
  };

  /**
   * The kernel's count of this process's CPU time (every thread; this test's is the one running), and the clock's, over a
   * busy loop of 200 ms of the process's CPU time: bound by CPU, not wall time, so that a starved loop (a hunt found one
   * given 14 ms of CPU in 150 ms) still outweighs the process's other threads.
   */
  const measure = (clock: { read: () => number }): { clock: number; process: number } => {
    const before = process.cpuUsage();
    const start = clock.read();
    const spent = (): number => {
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1_000;
    };
    let x = 0;
    while (spent() < 200) for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + 1);
    const used = process.cpuUsage(before);
    return { clock: clock.read() - start, process: (used.user + used.system) / 1_000 };
  };

  it("reads this thread's CPU time from /proc/thread-self/schedstat, as the kernel counts the process's", () => {
    const clock = threadCpuClock(load(fs));
    expect(clock?.source).toBe("/proc/thread-self/schedstat");
    const m = measure(clock as { read: () => number });
    expect(m.clock).toBeGreaterThan(m.process * 0.7);
    // The process's count is in µs, taken outside the clock's two reads: 2 ms of slack.
    expect(m.clock).toBeLessThan(m.process + 2);
  });

  it("falls back to /proc/thread-self/stat's clock ticks, then to none", () => {
    const clock = threadCpuClock(load(without("/proc/thread-self/schedstat")));
    expect(clock?.source).toBe("/proc/thread-self/stat");
    const m = measure(clock as { read: () => number });
    // Clock ticks are 10 ms each: two reads, 20 ms either way.
    expect(m.clock).toBeGreaterThan(m.process * 0.7 - 20);
    expect(m.clock).toBeLessThan(m.process + 20);
    expect(threadCpuClock(load(without("/proc/thread-self/schedstat", "/proc/thread-self/stat")))).toBeUndefined();
    expect(threadCpuClock(load({ readFileSync: () => "not a number" }))).toBeUndefined();
  });

  it("reads NaN, not a throw, when the file goes away after the start", () => {
    let gone = false;
    const clock = threadCpuClock(
      load({
        readFileSync: (path, encoding) => {
          if (gone) throw new Error("EMFILE");
          return fs.readFileSync(path, encoding);
        },
      }),
    );
    gone = true;
    expect(clock?.read()).toBeNaN();
  });
});
