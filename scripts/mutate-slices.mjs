#!/usr/bin/env node
/**
 * Runs the mutate list of `stryker.config.json` one slice at a time, so a whole-list run (days on
 * a shared 2-core machine) can be built up across sessions: each slice has its own incremental
 * file in `reports/incremental/`, which is committed, so the next run (on any clone) re-tests only
 * the mutants whose code or covering tests changed since, and reuses the rest.
 *
 *   node scripts/mutate-slices.mjs --list                  # the slices and their files
 *   node scripts/mutate-slices.mjs src/util src/tool       # run these slices, one after another
 *   node scripts/mutate-slices.mjs approval-core            # a group of scripts/mutation-groups.json
 *   node scripts/mutate-slices.mjs --name mine --mutate src/node/codec.ts,src/node/wire.ts
 *   node scripts/mutate-slices.mjs --all                   # every slice, in layer order
 *
 * A slice is a folder of `src/` (`src` alone is its top-level files), or a group of
 * `scripts/mutation-groups.json`: a few files with the tests that reach them, for the parts held to
 * 95% (the approval core, the codecs, the journal), which a run of their folder would take hours to
 * reach. `MUTATE_TESTS` narrows the suite as for `npm run mutate` (docs/mutation.md; a group sets
 * it to its `tests`); tests left out can only lower a score. After
 * each slice, `scripts/mutation-table.mjs` rewrites the per-file table of docs/mutation.md from
 * every file in `reports/incremental/`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const config = JSON.parse(readFileSync(join(root, "stryker.config.json"), "utf8"));
const globs = config.mutate.filter((g) => !g.startsWith("!"));
const excluded = config.mutate.filter((g) => g.startsWith("!"));

/**
 * The slices in the order the layers import each other (`.dependency-cruiser.cjs`), then the
 * subpaths. Only the order lives here: the slices themselves are the folders the mutate list's
 * files are in, so a folder named nowhere below (a new subpath) is still a slice, run after these.
 */
const ORDER = [
  "src",
  "util",
  "schema",
  "tool",
  "resolve",
  "run",
  "agent",
  "providers",
  "testing",
  "mcp",
  "otel",
  "node",
  "bullmq",
  "ui-protocol",
  "ai-sdk",
  "ag-ui",
  "code-mode",
].map((folder) => (folder === "src" ? "src" : `src/${folder}`));
/** What git tracks under the globs: `:(glob)` pathspecs read `*` and `**` as Stryker does. */
const tracked = (patterns) =>
  patterns.length === 0
    ? []
    : spawnSync("git", ["ls-files", "--", ...patterns.map((g) => `:(glob)${g}`)], { cwd: root, encoding: "utf8" })
        .stdout.split("\n")
        .filter((f) => f !== "");
const skip = new Set(tracked(excluded.map((g) => g.slice(1))));
/** Every file of the mutate list, as Stryker would pick them. */
const listed = tracked(globs).filter((f) => !skip.has(f));
/** `src/util/x.ts` → `src/util`, `src/index.ts` → `src`. */
const sliceOf = (file) =>
  file
    .split("/")
    .slice(0, file.split("/").length > 2 ? 2 : 1)
    .join("/");
const rank = (slice) => (ORDER.includes(slice) ? ORDER.indexOf(slice) : ORDER.length);
const slices = [...new Set(listed.map(sliceOf))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
/** The glob a slice hands Stryker (with the list's exclusions after it). */
const globOf = (slice) => (slice === "src" ? "src/*.ts" : `${slice}/**/*.ts`);
const groups = JSON.parse(readFileSync(join(root, "scripts", "mutation-groups.json"), "utf8"));

/** The files of a slice that Stryker would mutate, for `--list`. */
const filesOf = (slice) => listed.filter((f) => sliceOf(f) === slice);

/**
 * Runs one named slice over `mutate` (globs or files) with its own incremental file and report,
 * then rewrites the doc's table unless `table` is false.
 */
export function runSlice(name, mutate, { incrementalFile, table = true } = {}) {
  const slug = name.replaceAll("/", "-");
  const sliceConfig = {
    ...config,
    $schema: undefined,
    mutate: [...mutate, ...excluded],
    reporters: ["clear-text", "progress", "json"],
    jsonReporter: { fileName: `reports/mutation/${slug}.json` },
    incremental: true,
    incrementalFile: incrementalFile ?? `reports/incremental/${slug}.json`,
    tempDirName: `.tmp/stryker-${slug}`,
  };
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const file = join(root, ".tmp", `stryker-${slug}.config.json`);
  writeFileSync(file, JSON.stringify(sliceConfig, null, 2));
  const started = Date.now();
  const run = spawnSync("npx", ["stryker", "run", file], { cwd: root, stdio: "inherit" });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`slice ${name}: ${minutes} min, exit ${run.status}`);
  if (table) spawnSync("node", [join(root, "scripts", "mutation-table.mjs")], { cwd: root, stdio: "inherit" });
  return run.status ?? 1;
}

const args = process.argv.slice(2);
if (basename(process.argv[1] ?? "") === "mutate-slices.mjs") {
  if (args.includes("--list")) {
    for (const slice of slices) console.log(`${slice.padEnd(16)} ${filesOf(slice).length} files`);
    console.log(`${"left out".padEnd(16)} ${[...skip].join(", ")}`);
    for (const [name, group] of Object.entries(groups)) console.log(`${name.padEnd(16)} ${group.mutate.join(", ")}`);
  } else if (args.includes("--name")) {
    const name = args[args.indexOf("--name") + 1];
    const mutate = args[args.indexOf("--mutate") + 1];
    if (name === undefined || mutate === undefined) throw new TypeError("Expected `--name <name> --mutate <files>`");
    process.exitCode = runSlice(name, mutate.split(","));
  } else {
    const chosen = args.includes("--all") ? slices : args.filter((a) => !a.startsWith("--"));
    if (chosen.length === 0) throw new TypeError(`Expected slices (${[...slices, ...Object.keys(groups)].join(", ")}), \`--all\`, \`--name\` or \`--list\``);
    for (const slice of chosen) {
      const group = groups[slice];
      if (group !== undefined) {
        process.env.MUTATE_TESTS = group.tests.join(",");
        const status = runSlice(slice, group.mutate);
        if (status !== 0) process.exitCode = status;
        continue;
      }
      const folder = slice.replace(/\/$/, "");
      if (!slices.includes(folder)) throw new TypeError(`Expected a slice of the mutate list (${slices.join(", ")}), got ${JSON.stringify(slice)}`);
      const status = runSlice(folder, [globOf(folder)]);
      if (status !== 0) process.exitCode = status;
    }
  }
}
