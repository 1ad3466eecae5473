import { defineConfig } from "vitest/config";

/**
 * Two groups. The Redis suite (test/bullmq) starts Redis servers and worker processes and stops
 * them mid-batch; it runs after everything else, one file at a time, so its timings are its own
 * and not those of a 2-core machine busy with the rest of the suite.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    // Every fast-check property runs on a fixed seed unless TOOLRX_SEED names another (docs/testing.md).
    setupFiles: ["test/support/fast-check-seed.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "toolrx",
          include: ["test/**/*.test.ts"],
          exclude: [
            "test/bullmq/**",
            "test/differential/bullmq.test.ts",
            "test/postgres/durable-chaos.test.ts",
            "test/postgres/postgres-server-journal-store.test.ts",
          ],
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "redis",
          include: ["test/bullmq/**/*.test.ts", "test/differential/bullmq.test.ts"],
          // The worker and producer processes run the fixtures bundled from source: no build needed.
          globalSetup: ["test/bullmq/build-fixtures.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          // A Postgres server of its own (Debian's) per file, and agent processes SIGKILLed mid-run: after the rest.
          name: "postgres",
          include: ["test/postgres/durable-chaos.test.ts", "test/postgres/postgres-server-journal-store.test.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
