#!/usr/bin/env node
/**
 * toolrx against the floor (bare RxJS) and its peers, in one run.
 *
 *   npm run bench               full run (scaling up to 1,000,000 calls, more repetitions)
 *   npm run bench -- --quick    under a minute on a 2-core machine
 *   npm run bench -- --only overhead,deadline
 *   npm run bench -- --out results.json   (default: bench/results.json)
 *
 * Overhead, concurrency and deadline run every system in this one process. The floor runs a
 * second time alone in a process of its own (`floor-alone`): a library that runs first can make
 * RxJS's shared code polymorphic and slow the floor down, which would flatter every ratio, so
 * ratios are quoted against the better of the two floors. toolrx-stream runs alone too
 * (`toolrx-stream-alone`), for the like-for-like ratio. Scaling runs each system and size in
 * a process of its own, so the peak RSS it reports belongs to that system alone.
 *
 * Writes a table to stdout and the rows to bench/results.json.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { concurrencyScenario, deadline, maxCalls, overhead, scalingJob, SETTINGS } from "./lib/scenarios.mjs";
import { loadSystem, SYSTEM_NAMES } from "./lib/systems.mjs";
import { printTable } from "./lib/table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const SHARED_SCENARIOS = { overhead, concurrency: concurrencyScenario, deadline };
const ALL_SCENARIOS = ["overhead", "scaling", "concurrency", "deadline"];
/**
 * Systems run a second time, each in a process of its own: the floor, so no ratio is flattered
 * by a floor slowed down by the libraries beside it, and toolrx, so its cost alone can be read
 * against the floor's alone.
 */
const ALONE = ["floor", "toolrx-stream"];

const args = process.argv.slice(2);
if (args[0] === "--child") {
  await child(JSON.parse(args[1]));
} else {
  await main(args);
}

async function main(argv) {
  const quick = argv.includes("--quick");
  const onlyAt = argv.indexOf("--only");
  const scenarios = onlyAt === -1 ? ALL_SCENARIOS : argv[onlyAt + 1].split(",");
  for (const s of scenarios) if (!ALL_SCENARIOS.includes(s)) fail(`unknown scenario ${s}; known: ${ALL_SCENARIOS.join(", ")}`);
  preflight();
  const mode = quick ? "quick" : "full";
  const started = performance.now();
  console.log(`toolrx bench (${mode}) on ${machine()}\n`);

  const { systems, missing } = await loadAll(SYSTEM_NAMES);
  const rows = [];
  for (const scenario of scenarios) {
    const t = performance.now();
    if (scenario === "scaling") {
      for (const n of SETTINGS[mode].scalingSizes) {
        for (const system of systems) {
          if (n <= maxCalls(system, SETTINGS[mode])) rows.push(await inChild({ job: "scaling", system: system.name, n, mode }));
          else rows.push(notRun("scaling", system.name, n, `not run: more than the ${maxCalls(system, SETTINGS[mode]).toLocaleString("en-US")} calls it runs in reasonable time in ${mode} mode`));
        }
      }
    } else {
      rows.push(...(await SHARED_SCENARIOS[scenario](systems, SETTINGS[mode])));
      for (const name of ALONE) {
        rows.push(...(await inChild({ job: "shared", scenario, system: name, mode })).map((row) => ({ ...row, system: `${name}-alone` })));
      }
    }
    for (const [name, reason] of missing) rows.push(notRun(scenario, name, null, reason));
    console.error(`  ${scenario}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  addRatios(rows);
  printTable(rows);
  const outAt = argv.indexOf("--out");
  const file = outAt === -1 ? join(here, "results.json") : resolve(argv[outAt + 1]);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`\n${rows.length} rows written to ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A job in a fresh process: one scenario for one system, or one scaling size. */
async function child(job) {
  const system = await loadSystem(job.system);
  const mode = SETTINGS[job.mode];
  const result = job.job === "scaling" ? await scalingJob(system, job.n, mode) : await SHARED_SCENARIOS[job.scenario]([system], mode);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function inChild(job) {
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), "--child", JSON.stringify(job)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1));
}

async function loadAll(names) {
  const systems = [];
  const missing = new Map();
  for (const name of names) {
    try {
      systems.push(await loadSystem(name));
    } catch (e) {
      missing.set(name, `not run: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
    }
  }
  return { systems, missing };
}

function notRun(scenario, system, n, note) {
  return { scenario, system, n, concurrency: null, medianMs: null, perCallUs: null, peakRssMb: null, note };
}

/** Ratio to the better floor of the same scenario and size: per call, or lateness for deadlines. */
function addRatios(rows) {
  for (const row of rows) {
    // Per-call costs compare across sizes, except in scaling, whose point is how they change with size.
    const floors = rows.filter(
      (f) => (f.system === "floor" || f.system === "floor-alone") && f.scenario === row.scenario && (row.scenario !== "scaling" || f.n === row.n),
    );
    const key = row.scenario === "deadline" ? "medianMs" : "perCallUs";
    const best = Math.min(...floors.map((f) => f[key]).filter((v) => typeof v === "number"));
    row.ratio = typeof row[key] === "number" && Number.isFinite(best) && best > 0 && row.scenario !== "deadline" ? Number((row[key] / best).toFixed(2)) : null;
  }
}

function preflight() {
  if (!existsSync(join(here, "..", "dist", "index.js"))) fail("no build of toolrx in dist/: run `npm run build` in the repository root first");
  if (!existsSync(join(here, "node_modules"))) fail("the benchmark's dependencies are not installed: run `npm ci` in bench/ first");
  // The floor and toolrx must share one RxJS: the root's.
  if (existsSync(join(here, "node_modules", "rxjs"))) fail("bench/node_modules has its own rxjs; the floor must use the root's copy, as toolrx does");
}

function machine() {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${cpu}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}
