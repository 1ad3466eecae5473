#!/usr/bin/env node
/**
 * Mutation testing of the files a change touches: the `src/` files of the mutate list that differ
 * from a base ref (default `origin/main`, else `main`), with the tests of the same layers, reusing
 * `reports/mutation/changed.incremental.json` from the last run (keep it in a CI cache). Prints each file's score, and fails when
 * one is under `--min` (default 0: report only).
 *
 *   npm run mutate:changed                       # against origin/main (or main)
 *   npm run mutate:changed -- --base HEAD~3 --min 95
 *   npm run mutate:changed -- --dry              # the files and tests it would take, nothing run
 *
 * The tests: `test/<layer>/**` for each layer changed (`src/tool/approval/x.ts` → `test/tool/**`),
 * unless `MUTATE_TESTS` says otherwise. Tests of other layers that would kill a mutant are left
 * out, which can only lower a score: a file under `--min` here may pass in a full run.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runSlice } from "./mutate-slices.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const git = (...a) => execFileSync("git", a, { cwd: root, encoding: "utf8" }).trim();

function refExists(ref) {
  try {
    git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

const base = option("--base") ?? (refExists("origin/main") ? "origin/main" : "main");
if (!refExists(base)) throw new TypeError(`Expected \`--base\` to name a commit, got ${JSON.stringify(base)}`);
const min = Number(option("--min") ?? 0);
if (!(min >= 0 && min <= 100)) throw new TypeError(`Expected \`--min\` to be a score from 0 to 100, got ${JSON.stringify(option("--min"))}`);

const config = JSON.parse(readFileSync(join(root, "stryker.config.json"), "utf8"));
const excluded = new Set(config.mutate.filter((g) => g.startsWith("!")).map((g) => g.slice(1)));
// Committed changes since the merge base, and the work tree's own.
const changed = new Set([
  ...git("diff", "--name-only", "--diff-filter=AMR", `${base}...HEAD`, "--", "src").split("\n"),
  ...git("diff", "--name-only", "--diff-filter=AMR", "HEAD", "--", "src").split("\n"),
]);
const files = [...changed].filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !excluded.has(f)).sort();
if (files.length === 0) {
  console.log(`No file of the mutate list changed against ${base}.`);
  process.exit(0);
}
// A top-level file of src/ is imported by every layer: the whole suite then.
const layers = [...new Set(files.map((f) => f.split("/")[1] ?? ""))];
process.env.MUTATE_TESTS ??= layers.some((l) => l.endsWith(".ts")) ? "test/**/*.test.ts" : layers.map((l) => `test/${l}/**/*.test.ts`).join(",");
console.log(`against ${base}: ${files.join(", ")}\ntests: ${process.env.MUTATE_TESTS}`);
if (args.includes("--dry")) process.exit(0);

// Not committed (a CI cache keeps it between runs): the slices' reports are the record.
const status = runSlice("changed", files, { incrementalFile: "reports/mutation/changed.incremental.json", table: false });
const report = JSON.parse(readFileSync(join(root, "reports", "mutation", "changed.json"), "utf8"));
let under = 0;
for (const [path, { mutants }] of Object.entries(report.files)) {
  const detected = mutants.filter((m) => m.status === "Killed" || m.status === "Timeout").length;
  const undetected = mutants.filter((m) => m.status === "Survived" || m.status === "NoCoverage").length;
  const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
  if (score < min) under++;
  console.log(`${score < min ? "UNDER" : "ok   "} ${path} ${score.toFixed(1)}%`);
}
process.exitCode = status !== 0 ? status : under > 0 ? 1 : 0;
