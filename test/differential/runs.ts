import type { Parameters } from "fast-check";

/**
 * The property's run count and seed: the file's own count by default, or a hunt's from the
 * environment (`TOOLRX_DIFFERENTIAL_RUNS=500 TOOLRX_DIFFERENTIAL_SEED=42 npx vitest run
 * test/differential/thread.test.ts`), so that many more runs, or a failure's seed, need no edit.
 * A hunt stops at its first counterexample, unshrunk (shrinking one through three executors can
 * outlast any timeout): replay it with its seed and `TOOLRX_DIFFERENTIAL_PATH`, without the run count, to shrink it.
 */
export function runParameters(numRuns: number): Parameters<unknown> {
  const runs = positive("TOOLRX_DIFFERENTIAL_RUNS");
  const seed = process.env.TOOLRX_DIFFERENTIAL_SEED;
  if (seed !== undefined && !/^-?\d+$/.test(seed)) throw new TypeError(`Expected TOOLRX_DIFFERENTIAL_SEED to be an integer, got ${JSON.stringify(seed)}`);
  const path = process.env.TOOLRX_DIFFERENTIAL_PATH;
  return {
    numRuns: runs ?? numRuns,
    ...(runs === undefined ? {} : { endOnFailure: true }),
    ...(seed === undefined ? {} : { seed: Number(seed) }),
    ...(path === undefined ? {} : { path }),
  };
}

/** How long the property may take: a hunt's many runs get a minute a 25 runs, on top of the file's own bound. */
export function propertyTimeout(numRuns: number, ms: number): number {
  const runs = positive("TOOLRX_DIFFERENTIAL_RUNS");
  return runs === undefined || runs <= numRuns ? ms : ms + Math.ceil(runs / 25) * 60_000;
}

function positive(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new TypeError(`Expected ${name} to be a positive integer, got ${JSON.stringify(text)}`);
  return n;
}
