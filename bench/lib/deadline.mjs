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
  const rows = [await bareTimeouts(mode)];
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
    // Held against bare batches run each just before one of its runs, at the same moments and on
    // the same heap, not against the bare row's own runs made before every system's: a GC pause
    // the earlier rows' garbage brings, or a burst of load, then falls beside both alike.
    const beside = [];
    for (let r = 0; r < 1 + mode.timedRuns; r++) {
      const bare = await bareRun();
      probe.reset();
      settledAt = [];
      const results = await runner.run(makeCalls(n));
      checkRun(system, probe, n, results);
      if (r === 0) continue;
      for (let i = 0; i < n; i++) lateness.push(settledAt[i] - probe.startedAt[i] - deadlineMs);
      beside.push(...bare);
    }
    const capped = n < DEADLINE.n ? `at ${n.toLocaleString("en-US")} calls (${mode.name} mode); ` : "";
    rows.push({
      ...base,
      lateMedianMs: round(median(lateness), 2),
      lateP99Ms: round(quantile(lateness, 0.99), 2),
      lateP99OverBareMs: round(quantile(lateness, 0.99) - quantile(beside, 0.99), 2),
      note: `${capped}${system.deadlineNote ?? ""}`,
    });
  }
  return rows;
}

/**
 * What the machine itself allows in this run: the same n never-settling calls, each given one
 * bare `setTimeout` and nothing else (no pool, no events, no encoding). A runner's lateness is
 * held against this row, so a loaded machine's noise is not charged to the runner.
 */
async function bareTimeouts(mode) {
  const { n } = DEADLINE;
  const lateness = [];
  for (let r = 0; r < 1 + mode.timedRuns; r++) {
    const run = await bareRun();
    if (r > 0) lateness.push(...run);
  }
  return {
    scenario: "deadline",
    system: "bare-settimeout",
    n,
    concurrency: n,
    lateMedianMs: round(median(lateness), 2),
    lateP99Ms: round(quantile(lateness, 0.99), 2),
    note: "one bare setTimeout per call, nothing else: the machine's own timer noise",
  };
}

/** One batch of the bare row: each call's lateness. */
async function bareRun() {
  const { n, deadlineMs } = DEADLINE;
  const { handler, probe } = instrumented("never");
  probe.reset();
  const settledAt = new Array(n);
  await new Promise((resolve) => {
    let left = n;
    for (let i = 0; i < n; i++) {
      handler({ i });
      setTimeout(() => {
        settledAt[i] = performance.now();
        if (--left === 0) resolve();
      }, deadlineMs);
    }
  });
  if (probe.calls !== n) throw new Error(`bare setTimeout: ${probe.calls} of ${n} handlers ran`);
  return Array.from({ length: n }, (_, i) => settledAt[i] - probe.startedAt[i] - deadlineMs);
}
