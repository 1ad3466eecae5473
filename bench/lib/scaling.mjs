/**
 * One system at one size, alone in its process: CPU per call as the calls grow, and memory as
 * the heap after a full GC (run with --expose-gc), which is what the run really holds; peak RSS
 * would instead show how far V8 let the heap grow before collecting. Streaming systems get the
 * calls streamed in and consume the results without collecting; the others get an array and
 * collect, as their users do.
 */
import { instrumented, makeCalls, streamCalls } from "./workload.mjs";
import { measuredRun } from "./rounds.mjs";
import { heapAfterGc, median, round } from "./stats.mjs";

export async function scalingJob(system, n, mode) {
  const { handler, probe } = instrumented("trivial");
  let kept;
  const runner = await system.prepare({ handler, concurrency: 16, collect: false, keep: (results) => (kept = results) });
  const input = () => (system.streams ? streamCalls(n) : makeCalls(n));
  const runs = n >= 1_000_000 ? Math.min(3, mode.scalingRuns) : mode.scalingRuns;
  const cpu = [];
  // Warm up on as many calls at every size, so small sizes are not measured cold.
  for (let r = 0; r < Math.max(1, Math.ceil(mode.scalingWarmupCalls / n)); r++) await measuredRun(system, runner, input(), n, probe);
  for (let r = 0; r < runs; r++) {
    const calls = input();
    cpu.push((await measuredRun(system, runner, calls, n, probe)).cpuMs);
    kept = undefined;
  }

  // A run of its own for memory, since forcing a GC inside it costs time. The input is made
  // before the baseline: a batch's caller holds its calls anyway.
  const calls = input();
  const baseline = heapAfterGc();
  let midRun = Number.NaN;
  probe.midpoint = Math.floor(n / 2);
  probe.atMidpoint = () => (midRun = heapAfterGc() - baseline);
  await measuredRun(system, runner, calls, n, probe);
  const retained = heapAfterGc() - baseline;
  // Read after the GC, so what the run returned was still held when the heap was measured.
  const holds = kept !== undefined;
  probe.midpoint = -1;
  const ms = median(cpu);
  return {
    scenario: "scaling",
    system: system.name,
    n,
    concurrency: 16,
    cpuMs: round(ms, 2),
    cpuUsPerCall: round((ms * 1000) / n, 3),
    heapMidRunMb: round(midRun / 2 ** 20, 2),
    retainedBytesPerCall: round(retained / n, 1),
    note: system.streams ? "streamed in, consumed without collecting" : holds ? "array in, results collected and held" : "array in, results collected",
  };
}
