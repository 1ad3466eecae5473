/**
 * Measuring runs. Systems that share a process run in interleaved rounds (each round runs every
 * system once, in a rotating order), so drift in the machine's speed hits them alike and a
 * ratio can be taken within each round: the paired ratio.
 */
import { cpuMs, median, quantile } from "./stats.mjs";

/** Fails the benchmark when a run skipped or repeated a handler, or lost a result. */
export function checkRun(system, probe, n, results) {
  if (probe.calls !== n || results !== n) {
    throw new Error(`${system.name}: ${n} calls ran the handler ${probe.calls} times and gave ${results} results`);
  }
}

/** One run of `runner` over `calls`, checked; returns its CPU time and wall time in ms. */
export async function measuredRun(system, runner, calls, n, probe) {
  probe.reset();
  const wall = performance.now();
  const cpu = cpuMs();
  const results = await runner.run(calls);
  const cost = { cpuMs: cpuMs() - cpu, wallMs: performance.now() - wall };
  checkRun(system, probe, n, results);
  return cost;
}

/**
 * Runs `prepared` systems over `calls` in rotating rounds; returns each system's CPU ms per
 * turn (`repeats` runs), round by round. Warm-up is counted in calls (within a CPU budget), not runs, so the
 * optimizing compiler has seen as many calls of a fast system as of a slow one. No forced GC
 * between runs: a forced full GC makes the next run slower than anything a real program sees.
 */
export async function rounds(prepared, calls, n, probe, { warmupRuns, warmupCalls, warmupCpuMs, runs, repeats = 1 }) {
  const cpu = new Map(prepared.map(({ system }) => [system.name, []]));
  for (const { system, runner } of prepared) {
    const start = cpuMs();
    for (let r = 0; r < warmupRuns || (r * n < warmupCalls && cpuMs() - start < warmupCpuMs); r++) {
      await measuredRun(system, runner, calls, n, probe);
    }
  }
  for (let r = 0; r < runs; r++) {
    for (let s = 0; s < prepared.length; s++) {
      const { system, runner } = prepared[(s + r) % prepared.length];
      // A round's turn is `repeats` runs back to back, so a GC pause or a preemption is a
      // smaller share of what is measured.
      let total = 0;
      for (let k = 0; k < repeats; k++) total += (await measuredRun(system, runner, calls, n, probe)).cpuMs;
      cpu.get(system.name).push(total);
    }
  }
  return cpu;
}

/**
 * The median over rounds of `a[r] / b[r]`, with the spread (the 25th and 75th percentiles):
 * both ran in round r, so whatever slowed that round down slowed both.
 */
export function pairedRatio(a, b) {
  const ratios = a.map((x, r) => x / b[r]).filter(Number.isFinite);
  return { median: median(ratios), p25: quantile(ratios, 0.25), p75: quantile(ratios, 0.75) };
}

export async function prepareAll(systems, setup) {
  return Promise.all(systems.map(async (system) => ({ system, runner: await system.prepare(setup) })));
}
