/**
 * The four scenarios. Systems that share a process run in interleaved rounds (each round runs
 * every system once, in a rotating order) so drift in the machine's speed hits all of them alike.
 */
import { makeCalls, instrumented, streamCalls } from "./workload.mjs";
import { median, peakRssMb, quantile, round } from "./stats.mjs";

export const SETTINGS = {
  quick: { name: "quick", overheadRuns: 5, poolRuns: 21, warmup: 2, warmupCalls: 300_000, warmupMs: 1_000, scalingSizes: [1_000, 10_000, 100_000], scalingRuns: 3, timedRuns: 3 },
  full: { name: "full", overheadRuns: 15, poolRuns: 41, warmup: 3, warmupCalls: 1_000_000, warmupMs: 5_000, scalingSizes: [1_000, 10_000, 100_000, 1_000_000], scalingRuns: 5, timedRuns: 7 },
};

/**
 * Run `prepared` systems over `calls` in rotating rounds; returns each system's run times in ms.
 * Warm-up is counted in calls (within a time budget), not runs, so the optimizing compiler has
 * seen as many calls of a fast system as of a slow one; no forced GC between runs, since a forced full GC makes the
 * next run several times slower than anything a real program sees.
 */
async function rounds(prepared, calls, n, probe, { warmupCalls, warmupMs, warmup, runs }) {
  const times = new Map(prepared.map(({ system }) => [system.name, []]));
  for (const { system, runner } of prepared) {
    const start = performance.now();
    for (let r = 0; r < warmup || (r * n < warmupCalls && performance.now() - start < warmupMs); r++) {
      probe.reset();
      checkRun(system, probe, n, await runner.run(calls));
    }
  }
  for (let r = 0; r < runs; r++) {
    for (let s = 0; s < prepared.length; s++) {
      const { system, runner } = prepared[(s + r) % prepared.length];
      probe.reset();
      const start = performance.now();
      const results = await runner.run(calls);
      const ms = performance.now() - start;
      checkRun(system, probe, n, results);
      times.get(system.name).push(ms);
    }
  }
  return times;
}

function checkRun(system, probe, n, results) {
  if (probe.calls !== n || results !== n) {
    throw new Error(`${system.name}: ${n} calls ran the handler ${probe.calls} times and gave ${results} results`);
  }
}

async function prepareAll(systems, setup) {
  return Promise.all(systems.map(async (system) => ({ system, runner: await system.prepare(setup) })));
}

/** The most calls `system` runs in one go in this mode; peers slow down sharply past some size. */
export function maxCalls(system, mode) {
  return system.maxCalls?.[mode.name] ?? Infinity;
}

/**
 * 10,000 trivial synchronous handlers at concurrency 16: the runner's cost per call. A system
 * that cannot run 10,000 calls in reasonable time runs at its own maximum, in rounds of its own.
 */
export async function overhead(systems, mode) {
  const n = 10_000, concurrency = 16;
  const { handler, probe } = instrumented("trivial");
  // Rounds interleave systems of one group: the floor with the light pools (toolrx, p-limit),
  // then the peer frameworks, whose garbage would otherwise land on the light ones' runs.
  const groups = new Map();
  for (const system of systems) {
    const size = Math.min(n, maxCalls(system, mode));
    const key = `${system.framework ? "framework" : "pool"} ${size}`;
    groups.set(key, { size, members: [...(groups.get(key)?.members ?? []), system] });
  }
  const rows = new Map();
  for (const { size, members: group } of groups.values()) {
    const prepared = await prepareAll(group, { handler, concurrency });
    // The light pools cost milliseconds a run, so they get many more runs for a steadier median.
    const runs = group[0].framework ? mode.overheadRuns : mode.poolRuns;
    const times = await rounds(prepared, makeCalls(size), size, probe, { ...mode, runs });
    for (const system of group) {
      const ms = median(times.get(system.name));
      const note = size < n ? `at ${size.toLocaleString("en-US")} calls: ${system.note}` : system.note;
      rows.set(system.name, { scenario: "overhead", system: system.name, n: size, concurrency, medianMs: round(ms, 2), perCallUs: round((ms * 1000) / size, 3), peakRssMb: null, note });
    }
  }
  return systems.map((system) => rows.get(system.name));
}

/** 64 handlers sleeping 20 ms at limit 8: how close the pool gets to ceil(64/8) × 20 ms. */
export async function concurrencyScenario(systems, mode) {
  const n = 64, concurrency = 8, sleepMs = 20;
  const ideal = Math.ceil(n / concurrency) * sleepMs;
  const { handler, probe } = instrumented("sleep", { sleepMs });
  const rows = [];
  for (const system of systems) {
    const runner = await system.prepare({ handler, concurrency });
    const times = [];
    let peak = 0;
    for (let r = 0; r < 1 + mode.timedRuns; r++) {
      probe.reset();
      const start = performance.now();
      const results = await runner.run(makeCalls(n));
      const ms = performance.now() - start;
      checkRun(system, probe, n, results);
      peak = Math.max(peak, probe.peak);
      if (r > 0) times.push(ms);
    }
    const ms = median(times);
    const honoured = peak <= concurrency;
    rows.push({
      scenario: "concurrency",
      system: system.name,
      n,
      concurrency,
      medianMs: round(ms, 1),
      perCallUs: round((ms * 1000) / n, 1),
      peakRssMb: null,
      efficiency: honoured ? round(ideal / ms, 3) : null,
      note: honoured ? `ideal ${ideal} ms; peak ${peak} at once` : `ran ${peak} at once: the limit of ${concurrency} is not honoured`,
    });
  }
  return rows;
}

/** Never-settling handlers under a 20 ms deadline: how late each call's timeout is reported. */
export async function deadline(systems, mode) {
  const n = 64, concurrency = 16, deadlineMs = 20;
  const rows = [];
  for (const system of systems) {
    const base = { scenario: "deadline", system: system.name, n, concurrency };
    const skip = !system.perToolDeadline
      ? "no per-tool deadline: a never-settling tool hangs the batch"
      : system.reportsEachCall === false
        ? "reports only when the whole batch is done, so per-call lateness is not observable"
        : undefined;
    if (skip !== undefined) {
      rows.push({ ...base, medianMs: null, perCallUs: null, peakRssMb: null, note: skip });
      continue;
    }
    const { handler, probe } = instrumented("never");
    const lateness = [];
    let settledAt = [];
    const onSettled = (i) => {
      settledAt[i] = performance.now();
    };
    const runner = await system.prepare({ handler, concurrency, deadlineMs, onSettled });
    for (let r = 0; r < 1 + mode.timedRuns; r++) {
      probe.reset();
      settledAt = [];
      const results = await runner.run(makeCalls(n));
      checkRun(system, probe, n, results);
      if (r === 0) continue;
      for (let i = 0; i < n; i++) lateness.push(settledAt[i] - probe.startedAt[i] - deadlineMs);
    }
    rows.push({
      ...base,
      medianMs: round(median(lateness), 2),
      perCallUs: null,
      peakRssMb: null,
      p99Ms: round(quantile(lateness, 0.99), 2),
      note: `lateness past the ${deadlineMs} ms deadline (median; p99 in p99Ms)${system.deadlineNote ? `; ${system.deadlineNote}` : ""}`,
    });
  }
  return rows;
}

/**
 * One system at one size, alone in its process (so its peak RSS is its own): calls streamed in
 * and consumed without collecting where the system can stream, an array otherwise.
 */
export async function scalingJob(system, n, mode) {
  const { handler, probe } = instrumented("trivial");
  const runner = await system.prepare({ handler, concurrency: 16, collect: false });
  const input = system.streams ? streamCalls(n) : makeCalls(n);
  const runs = n >= 1_000_000 ? Math.min(3, mode.scalingRuns) : mode.scalingRuns;
  const times = (await rounds([{ system, runner }], input, n, probe, { ...mode, warmup: 1, runs })).get(system.name);
  const ms = median(times);
  return {
    scenario: "scaling",
    system: system.name,
    n,
    concurrency: 16,
    medianMs: round(ms, 2),
    perCallUs: round((ms * 1000) / n, 3),
    peakRssMb: round(peakRssMb(), 1),
    note: system.streams ? "streamed in, consumed without collecting" : "array in, results collected",
  };
}
