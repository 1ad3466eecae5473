import { defineConfig } from "vitest/config";

/**
 * The suite as mutation testing runs it (`npm run mutate`). Left out, each for a reason:
 * - `test/examples/ui.e2e.test.ts`: a headless browser; no mutant of the core changes what it sees,
 *   and it would cost much of the run's time.
 * - `test/bullmq/*.test.ts` and `test/differential/bullmq.test.ts`: they need `redis-server` and
 *   worker processes bundled from source, which Stryker's sandbox does not build, so with Redis
 *   installed the run would stop in its initial test run, and without it they skip; either way
 *   `npm run mutate` must not depend on the machine. The `toolrx/bullmq` files only they reach
 *   count as not reached (docs/mutation.md). Unit tests of `toolrx/bullmq` that need no Redis live
 *   in `test/bullmq/unit/` and are part of the suite.
 * - type tests (`*.test-d.ts`): no mutant changes a type.
 *
 * `MUTATE_TESTS` (comma-separated globs) narrows the suite for a run over a few files, so the
 * initial test run does not cost the whole suite: `MUTATE_TESTS='test/tool/**' npx stryker run
 * --mutate 'src/tool/approval/**'`. Perfect coverage analysis still picks, per mutant, the tests
 * that reach it; tests left out can only make a score lower, never higher.
 */
const narrowed = process.env.MUTATE_TESTS?.split(",")
  .map((glob) => glob.trim())
  .filter((glob) => glob !== "");

export default defineConfig({
  test: {
    include: narrowed !== undefined && narrowed.length > 0 ? narrowed : ["test/**/*.test.ts"],
    exclude: ["test/examples/ui.e2e.test.ts", "test/bullmq/*.test.ts", "test/differential/bullmq.test.ts"],
    testTimeout: 20_000,
    // The same fixed fast-check seed as `npm test`: a mutant is killed by a test, not by a seed's luck.
    setupFiles: ["test/support/fast-check-seed.ts"],
  },
});
