import type { ThreadCpuClock } from "./thread-cpu-clock.js";

/** One script's CPU budget, asked from the interrupt handler and between jobs. */
export interface CpuBudget {
  /** Whether the script has run past its budget, given the wall time its guest code has run so far. */
  readonly spent: (wallMs: number) => boolean;
  /** The clock that ends the script, said in its `cpu_time` message. */
  readonly clock: string;
}

/**
 * The budget of a script that may run `limitMs` of CPU time. Wall time is the cheap check and
 * decides alone while it is under the limit, since a thread cannot run longer on a CPU than it
 * exists. Past it, the thread's CPU clock decides (a thread starved by a loaded machine is not
 * ended early), and is read again only once the wall time since the last read could have held
 * the CPU time left, at least 2 ms later: a busy loop costs a few reads, not
 * one per interrupt, and overruns its budget by at most that gap. Without a clock, or when a read
 * fails, wall time alone decides, as it did before. The clock is read once here, at the start:
 * the thread's CPU time before the script does not count. Sent to the sandbox thread as text, so
 * it references nothing outside its own body.
 *
 * @example
 * const budget = cpuBudget(1_000, threadCpuClock(require), () => performance.now());
 * budget.spent(400); //=> false (under the limit in wall time: no read)
 * budget.spent(1_500); //=> false when the thread ran only 600 ms on a CPU in those 1 500 ms
 */
export function cpuBudget(limitMs: number, cpu: ThreadCpuClock | undefined, wallNow: () => number): CpuBudget {
  /** The least wall time between two reads of the CPU clock, in ms, and so the most a script overruns its budget by. */
  const MIN_READ_GAP_MS = 2;
  const start = cpu === undefined ? Number.NaN : cpu.read();
  if (cpu === undefined || Number.isNaN(start)) return { spent: (wallMs) => wallMs > limitMs, clock: "wall time: no CPU clock of the thread here" };
  let nextRead = Number.NEGATIVE_INFINITY;
  return {
    clock: `the thread's CPU time, from ${cpu.source}`,
    spent: (wallMs) => {
      if (wallMs <= limitMs) return false;
      const now = wallNow();
      if (now < nextRead) return false;
      const used = cpu.read() - start;
      // A failed read (NaN) fails closed: the wall time, past the limit, decides.
      if (!(used <= limitMs)) return true;
      nextRead = now + Math.max(limitMs - used, MIN_READ_GAP_MS);
      return false;
    },
  };
}
