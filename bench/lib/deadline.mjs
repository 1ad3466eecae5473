/**
 * 1,000 never-settling handlers at once under a 50 ms deadline: how late each call's timeout
 * is reported, measured from the handler's start to the moment the outcome is seen outside.
 */
import { instrumented, makeCalls } from "./workload.mjs";
import { checkRun } from "./rounds.mjs";
import { maxCalls } from "./settings.mjs";
import { median, quantile, round } from "./stats.mjs";

export const DEADLINE = { n: 1_000, deadlineMs: 50 };

export async function deadline(systems, mode) {
  const { deadlineMs } = DEADLINE;
  const rows = [];
  for (const system of systems) {
    const n = Math.min(DEADLINE.n, maxCalls(system, mode));
    const base = { scenario: "deadline", system: system.name, n, concurrency: n };
    const skip = !system.perToolDeadline
      ? "no per-tool deadline: a never-settling tool hangs the batch"
      : system.reportsEachCall === false
        ? "reports only when the whole batch is done, so per-call lateness is not observable"
        : undefined;
    if (skip !== undefined) {
      rows.push({ ...base, lateMedianMs: null, lateP99Ms: null, note: skip });
      continue;
    }
    const { handler, probe } = instrumented("never");
    const lateness = [];
    let settledAt = [];
    const onSettled = (i) => {
      settledAt[i] = performance.now();
    };
    const runner = await system.prepare({ handler, concurrency: n, deadlineMs, onSettled });
    for (let r = 0; r < 1 + mode.timedRuns; r++) {
      probe.reset();
      settledAt = [];
      const results = await runner.run(makeCalls(n));
      checkRun(system, probe, n, results);
      if (r === 0) continue;
      for (let i = 0; i < n; i++) lateness.push(settledAt[i] - probe.startedAt[i] - deadlineMs);
    }
    const capped = n < DEADLINE.n ? `at ${n.toLocaleString("en-US")} calls (${mode.name} mode); ` : "";
    rows.push({
      ...base,
      lateMedianMs: round(median(lateness), 2),
      lateP99Ms: round(quantile(lateness, 0.99), 2),
      note: `${capped}${system.deadlineNote ?? ""}`,
    });
  }
  return rows;
}
