// A hunt for counterexamples: `npm test` runs every fast-check property on one fixed seed
// (test/support/suite-seed.ts), so it is reproducible but only ever looks in one place. A hunt runs
// the same properties round after round, each round on a new random seed, until its time is up,
// and prints every counterexample with the seed and path that replay it. Exit status 1 when it
// found any. docs/testing.md says how a find becomes a named test.
//
//   npm run hunt                          # 5 minutes
//   npm run hunt -- --minutes 30          # longer
//   npm run hunt -- --only differential   # the property files whose path matches a regex
//   npm run hunt -- --list                # the files it would run, and stop
//
// Every round runs with TOOLRX_HUNT=1 (test/support/hunt-runs.ts): properties that take
// `huntRuns(usual, hunt)` run their hunt count, bounded to what one round can afford.
//
// The files are found, not listed: every test file that imports fast-check, itself or through
// a helper of test/ that does (imported, or named by path as a program a test runs). A round that is running when the time is up finishes.
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "5" },
    only: { type: "string" },
    list: { type: "boolean", default: false },
  },
});
const minutes = Number(values.minutes);
if (!Number.isFinite(minutes) || minutes <= 0) throw new TypeError(`Expected \`--minutes\` to be a positive number, got ${values.minutes}`);

const files = propertyFiles(join(root, "test")).filter((f) => values.only === undefined || new RegExp(values.only).test(f));
if (files.length === 0) throw new Error(`No property file matches \`--only ${values.only}\``);
if (values.list) {
  for (const f of files) console.log(f);
  process.exit(0);
}

const out = mkdtempSync(join(tmpdir(), "toolrx-hunt-"));
const deadline = Date.now() + minutes * 60_000;
const finds = [];
let rounds = 0;
let runs = 0;
console.log(`hunt: ${files.length} property files, ${minutes} min, logs in ${out}`);
while (Date.now() < deadline) {
  rounds++;
  const seed = randomInt(-(2 ** 31), 2 ** 31);
  const report = join(out, `round-${rounds}.json`);
  const started = Date.now();
  const status = await vitest(files, seed, report, join(out, `round-${rounds}.log`));
  const found = failures(report, seed, status, join(out, `round-${rounds}.log`));
  runs += found.tests;
  finds.push(...found.failed);
  const took = Math.round((Date.now() - started) / 1000);
  console.log(`round ${rounds}: seed ${seed}, ${found.tests} tests, ${found.failed.length} failed, ${took} s`);
  for (const f of found.failed) print(f);
}
console.log(`\nhunt: ${rounds} rounds, ${runs} tests run, ${finds.length} counterexamples or failures`);
if (finds.length === 0) rmSync(out, { recursive: true, force: true });
process.exit(finds.length === 0 ? 0 : 1);

/** Every test file under `dir` that reaches fast-check through its relative imports. */
function propertyFiles(dir) {
  const sources = walk(dir).filter((f) => f.endsWith(".ts"));
  const imports = new Map(sources.map((f) => [f, readFileSync(f, "utf8")]));
  const uses = new Set(sources.filter((f) => /from "fast-check"/.test(must(imports.get(f)))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of sources) {
      if (uses.has(f)) continue;
      const deps = [...must(imports.get(f)).matchAll(/["'](\.{1,2}\/[^"']+\.[jt]s)["']/g)].map((m) => resolve(dirname(f), m[1].replace(/\.js$/, ".ts")));
      if (deps.some((d) => uses.has(d))) {
        uses.add(f);
        grew = true;
      }
    }
  }
  return [...uses]
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => relative(root, f))
    .sort();
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "fixtures" ? [] : walk(path);
    return [path];
  });
}

function must(value) {
  if (value === undefined) throw new Error("unreachable: every source was read");
  return value;
}

/** One round: the files through vitest on `seed`, its JSON report at `report`. */
function vitest(list, seed, report, log) {
  return new Promise((done) => {
    const child = spawn(join(root, "node_modules/.bin/vitest"), ["run", "--reporter=json", "--reporter=default", `--outputFile.json=${report}`, ...list], {
      cwd: root,
      env: { ...process.env, TOOLRX_SEED: String(seed), TOOLRX_HUNT: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("close", (code) => {
      writeFileSync(log, Buffer.concat(chunks));
      done(code ?? 1);
    });
  });
}

/** The failed tests of a round's report; a round that failed without a report is one failure. */
function failures(report, seed, status, log) {
  let json;
  try {
    json = JSON.parse(readFileSync(report, "utf8"));
  } catch {
    return { tests: 0, failed: status === 0 ? [] : [{ file: "(vitest)", name: `exit ${status} with no report`, seed, message: `see ${log}` }] };
  }
  const failed = [];
  let tests = 0;
  for (const file of json.testResults) {
    const path = relative(root, file.name);
    for (const t of file.assertionResults) {
      tests++;
      if (t.status === "failed") failed.push({ file: path, name: t.fullName, seed, message: t.failureMessages.join("\n"), ms: Math.round(t.duration ?? 0) });
    }
    if (file.status === "failed" && file.assertionResults.every((t) => t.status !== "failed")) {
      const message = file.message === "" ? `the file failed outside its tests (a hook, or an error after them): see ${log}` : file.message;
      failed.push({ file: path, name: "(the file)", seed, message });
    }
  }
  return { tests, failed };
}

function print(f) {
  const fast = /\{ seed: (-?\d+), path: "([^"]*)"/.exec(f.message);
  const counterexample = /Counterexample: ([\s\S]*?)\nShrunk/.exec(f.message)?.[1];
  console.log(`\n  FOUND in ${f.file} › ${f.name}`);
  console.log(`  seed ${fast?.[1] ?? f.seed}${fast ? `, path "${fast[2]}"` : ""}${f.ms === undefined ? "" : `, after ${f.ms} ms`}`);
  // vitest reports a test stopped by its timeout with this placeholder in place of a message.
  if (f.message.startsWith("Error: STACK_TRACE_ERROR")) console.log("  stopped by vitest's timeout (a property too slow for its test's time limit)");
  const got = /\nGot ([\s\S]*?)(?:\n\s+at |$)/.exec(f.message)?.[1];
  if (counterexample !== undefined) console.log(`  counterexample: ${counterexample.slice(0, 2000)}`);
  if (got !== undefined) console.log(`  got ${got.slice(0, 1500).split("\n").join("\n  ")}`);
  else console.log(`  ${f.message.split("\n").slice(0, 6).join("\n  ")}`);
  const only = f.name === "(the file)" ? "" : ` -t ${JSON.stringify(f.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))}`;
  console.log(`  replay: TOOLRX_SEED=${f.seed} npx vitest run ${f.file}${only}`);
}
