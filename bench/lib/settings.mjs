/**
 * How much each mode runs. Quick stays under about a minute of a 2-core machine (it runs in
 * CI to prove the benchmark works); full is what docs/benchmarks.md's tables come from.
 */
export const SETTINGS = {
  quick: {
    name: "quick",
    poolRuns: 11,
    repeats: { sync: 2, async: 1 },
    frameworkRuns: 3,
    warmupRuns: 2,
    warmupCalls: 50_000,
    warmupCpuMs: 300,
    alone: ["floor", "contract-stream", "toolrx-stream"],
    scalingSizes: [100_000],
    scalingRuns: 2,
    scalingWarmupCalls: 100_000,
    scalingSystems: ["floor", "limit-stream", "limit-batch", "toolrx-stream", "toolrx-batch"],
    queued: { mergeMap: [1_000, 100_000], toolrx: [1_000_000], watchdogMs: 60_000 },
    timedRuns: 2,
  },
  full: {
    name: "full",
    poolRuns: 41,
    repeats: { sync: 5, async: 2 },
    frameworkRuns: 7,
    warmupRuns: 3,
    warmupCalls: 1_000_000,
    warmupCpuMs: 4_000,
    alone: ["floor", "floor-timeout", "contract-stream", "contract-batch", "limit-stream", "limit-batch", "toolrx-stream", "toolrx-batch"],
    scalingSizes: [1_000, 10_000, 100_000, 1_000_000],
    scalingRuns: 5,
    scalingWarmupCalls: 200_000,
    scalingSystems: ["floor", "limit-stream", "limit-batch", "toolrx-stream", "toolrx-batch", "p-limit", "ai-sdk", "langgraph"],
    queued: { mergeMap: [1_000, 10_000, 100_000], toolrx: [1_000, 100_000, 1_000_000], watchdogMs: 120_000 },
    timedRuns: 7,
  },
};

/** The most calls `system` runs in one go in this mode; peers slow down sharply past some size. */
export function maxCalls(system, mode) {
  return system.maxCalls?.[mode.name] ?? Infinity;
}

/** The old physical limit a system is shown against (a context row: it does less than the contract). */
export function limitOf(system) {
  return system.kind === "stream" ? "limit-stream" : "limit-batch";
}

/** The contract's limit a system is held against: hand-written, exactly the contract's work. */
export function contractOf(system) {
  return system.kind === "stream" ? "contract-stream" : "contract-batch";
}
