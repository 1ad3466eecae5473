#!/usr/bin/env node
/**
 * What one expiry costs inside a wake: 1,000 never-settling calls whose deadlines fall at the
 * same instant (a frozen clock, so one wake expires them all), the wake run by hand and timed.
 * Lateness at scale is this cost times the expiries before a call in its wake, so it is measured
 * apart from the machine's timer noise. Builds are run alternately, round by round, in one process.
 *
 *   node bench/deadline-wake.mjs <dist-dir> [<dist-dir> ...] [--rounds 100]
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const argv = process.argv.slice(2);
const at = argv.indexOf("--rounds");
const rounds = at === -1 ? 100 : Number(argv[at + 1]);
const warmup = 10;
const dirs = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--rounds");
const builds = await Promise.all(dirs.map(async (dir) => ({ dir, lib: await import(pathToFileURL(resolve(dir, "index.js")).href) })));
const n = 1_000;

/** A clock that stands still until moved, holding the one action the pool schedules. */
function frozenScheduler() {
  let now = 1_000;
  let action;
  return {
    now: () => now,
    schedule(work, _delay, state) {
      action = { work, state };
      return { unsubscribe: () => (action = undefined) };
    },
    wake(ms) {
      now += ms;
      const due = action;
      action = undefined;
      due.work.call({ schedule() {} }, due.state);
    },
  };
}

/** µs per expiry of one wake that times out `n` calls. */
function once(lib) {
  const scheduler = frozenScheduler();
  const tool = lib.defineTool({ name: "never", description: "", schema: z.object({}), handler: () => new Promise(() => {}) });
  const calls = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "never", arguments: {} }));
  let answered = 0;
  lib.streamToolCalls(calls, [tool], { maxConcurrency: n, toolTimeout: 50, scheduler }).subscribe((e) => {
    if (e.type === "tool_execution_completed") answered++;
  });
  const started = performance.now();
  scheduler.wake(50);
  const us = ((performance.now() - started) * 1_000) / n;
  if (answered !== n) throw new Error(`${answered} of ${n} calls answered in one wake`);
  return us;
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const results = builds.map(() => []);
for (let r = 0; r < warmup + rounds; r++) {
  for (const [i, b] of builds.entries()) {
    const us = once(b.lib);
    if (r >= warmup) results[i].push(us);
  }
}
const f = (x) => x.toFixed(3);
console.log(`${n.toLocaleString("en-US")} deadlines expiring in one wake, µs per expiry, median over ${rounds} rounds (25th–75th percentile):`);
for (const [i, b] of builds.entries()) {
  const xs = results[i];
  const ratio =
    i === 0
      ? ""
      : `; ${f(
          pct(
            xs.map((x, k) => x / results[0][k]),
            0.5,
          ),
        )}× ${builds[0].dir}, round by round`;
  console.log(`${b.dir}: ${f(pct(xs, 0.5))} (${f(pct(xs, 0.25))}–${f(pct(xs, 0.75))})${ratio}`);
}
