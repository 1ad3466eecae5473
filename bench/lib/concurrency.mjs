/** 64 handlers sleeping 20 ms at limit 8: how close the pool gets to ceil(64/8) × 20 ms of wall time. */
import { instrumented, makeCalls } from "./workload.mjs";
import { measuredRun } from "./rounds.mjs";
import { median, round } from "./stats.mjs";

export async function concurrencyScenario(systems, mode) {
  const n = 64,
    concurrency = 8,
    sleepMs = 20;
  const ideal = Math.ceil(n / concurrency) * sleepMs;
  const { handler, probe } = instrumented("sleep", { sleepMs });
  const rows = [];
  for (const system of systems) {
    const runner = await system.prepare({ handler, concurrency });
    const times = [];
    let peak = 0;
    for (let r = 0; r < 1 + mode.timedRuns; r++) {
      const { wallMs } = await measuredRun(system, runner, makeCalls(n), n, probe);
      peak = Math.max(peak, probe.peak);
      if (r > 0) times.push(wallMs);
    }
    const ms = median(times);
    const honoured = peak <= concurrency;
    rows.push({
      scenario: "concurrency",
      system: system.name,
      n,
      concurrency,
      wallMs: round(ms, 1),
      efficiency: honoured ? round(ideal / ms, 3) : null,
      note: honoured ? `ideal ${ideal} ms; peak ${peak} at once` : `ran ${peak} at once: the limit of ${concurrency} is not honoured`,
    });
  }
  return rows;
}
