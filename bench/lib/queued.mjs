/**
 * Synchronous calls queued behind slow ones: 16 handlers that take 20 ms fill the limit of 16,
 * then `n` handlers that answer synchronously wait their turn. When the slow ones finish, bare
 * `mergeMap` starts each queued call from inside the completion of the one before, so the stack
 * grows with the queue (RxJS issues #3609 and #7334). toolrx drains its queue in a loop.
 *
 * Each case runs in a process of its own under a watchdog: a run that stands still without a
 * result is reported as hung, with how many handlers had run.
 */
import { instrumented, makeCalls } from "./workload.mjs";
import { checkRun } from "./rounds.mjs";
import { cpuMs, round } from "./stats.mjs";

const SLOW = 16;

/** In the child: one case, printed as one JSON line, whether it finishes, throws or hangs. */
export async function queuedJob(system, n, watchdogMs) {
  const { handler, probe } = instrumented("queued");
  probe.slowCalls = SLOW;
  const base = { scenario: "queued", system: system.name, n, concurrency: SLOW };
  const runner = await system.prepare({ handler, concurrency: SLOW, collect: false });
  const calls = makeCalls(SLOW + n);
  const cpu = cpuMs();
  const watchdog = watch(probe, watchdogMs, (why) => {
    const ran = `${probe.calls.toLocaleString("en-US")} of ${(SLOW + n).toLocaleString("en-US")} handlers had run`;
    process.stdout.write(`${JSON.stringify({ ...base, outcome: "hung", note: `${why}; ${ran}` })}\n`);
    process.exit(0);
  });
  try {
    const results = await runner.run(calls);
    const ms = cpuMs() - cpu;
    checkRun(system, probe, SLOW + n, results);
    return { ...base, outcome: "ok", cpuMs: round(ms, 1), cpuUsPerCall: round((ms * 1000) / (SLOW + n), 3), note: "every call ran once" };
  } catch (e) {
    return { ...base, outcome: e instanceof Error ? e.name : "error", note: e instanceof Error ? e.message : String(e) };
  } finally {
    clearInterval(watchdog);
  }
}

/**
 * Calls `hung` once the run has stood still for `idleMs`: no handler started and almost no CPU
 * used, so it is waiting for nothing (a busy but slow run, or one starved by a loaded machine,
 * still uses CPU). Past `watchdogMs` in all, it gives up on a slow run as well.
 */
function watch(probe, watchdogMs, hung, idleMs = 2_000, everyMs = 250) {
  const started = performance.now();
  let last = { calls: probe.calls, cpu: cpuMs(), at: started };
  return setInterval(() => {
    const now = performance.now();
    if (probe.calls !== last.calls || cpuMs() - last.cpu > 5) last = { calls: probe.calls, cpu: cpuMs(), at: now };
    else if (now - last.at >= idleMs) hung(`stood still for ${idleMs / 1000} s: no handler started, no CPU used, no result and no error`);
    if (now - started >= watchdogMs) hung(`no result after ${watchdogMs / 1000} s`);
  }, everyMs);
}
