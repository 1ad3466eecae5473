import { defineConfig } from "vitest/config";

/**
 * The suite as mutation testing runs it (`npm run mutate`): the headless-browser test and type
 * tests are left out, since no mutant of the core can change what they see and they would cost
 * most of the run's time.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/examples/ui.e2e.test.ts"],
    testTimeout: 20_000,
  },
});
