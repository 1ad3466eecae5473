import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Where the worker and producer processes of test/bullmq are bundled to (inside the repository, so their packages resolve). */
export const FIXTURES_OUT = fileURLToPath(new URL("../../.tmp/test-bullmq/", import.meta.url));

/**
 * The Redis suite's global setup: bundle the worker and producer fixtures from source (src/ and
 * test/bullmq/fixtures, packages left external), so that `npm test` on a fresh clone needs no
 * build step. esbuild does it in well under a second, and each child process then starts as fast
 * as from `dist/` (a `tsx` loader would cost seconds of CPU per process, and the chaos test starts
 * dozens).
 */
export default async function setup(): Promise<void> {
  const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
  await build({
    entryPoints: [`${fixtures}worker.ts`, `${fixtures}producer.ts`, `${fixtures}docs-worker.ts`],
    outdir: FIXTURES_OUT,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
}
