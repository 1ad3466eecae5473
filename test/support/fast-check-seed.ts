import fc from "fast-check";
import { beforeEach } from "vitest";
import { hunting } from "./hunt-runs.js";
import { suiteSeed } from "./suite-seed.js";

// The setup file of both vitest configs: every fast-check property of the file runs on the suite's
// seed (test/support/suite-seed.ts says which).
const seed = suiteSeed();

// fast-check merges these under each property's own parameters: a property that sets its own
// `numRuns` still runs on this seed; one that sets its own `seed` (a replay such as
// TOOLRX_DIFFERENTIAL_SEED) keeps it.
// A hunt reads failures from vitest's JSON report, which leaves out an error's cause: there the
// property's own error goes into fast-check's message.
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed, ...(hunting() ? { includeErrorInReport: true } : {}) });

// fast-check names the seed in its own failure message, but not when vitest's timeout stops a
// property midway, nor when a test fails around a property rather than inside it.
beforeEach(({ onTestFailed, task }) => {
  onTestFailed(() => {
    const file = task.file?.name ?? "<file>";
    console.error(`fast-check seed ${seed}; replay: TOOLRX_SEED=${seed} npx vitest run ${file} -t ${JSON.stringify(task.name)}`);
  });
});
