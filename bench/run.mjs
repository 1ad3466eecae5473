#!/usr/bin/env node
/**
 * toolrx against its floors, its physical limit and its peers, in one run.
 *
 *   npm run bench               full run (up to 1,000,000 calls, more rounds)
 *   npm run bench -- --quick    about a minute on a 2-core machine
 *   npm run bench -- --only sync,async
 *   npm run bench -- --out results.json   (default: bench/results.json)
 *
 * Costs are CPU time (user + system) per run, not wall time: on a shared machine wall time
 * swings with the neighbours' load. Systems that share this process run in interleaved rounds,
 * and ratios are taken within each round (paired), then the median over rounds. Some systems
 * also run each alone in a process of its own (`-alone` rows), and their ratios are quoted too:
 * a library that runs first can slow RxJS's shared code down for the ones after it.
 *
 * What toolrx is held against: `floor` (bare `mergeMap`), `floor-timeout` (the same with RxJS
 * `timeout` on each call), and `limit-stream` / `limit-batch` (hand-written pools doing exactly
 * the work a tool runner must do: the physical limit). The targets are evaluated at the end.
 *
 * Then the benches that run on their own (bench/lib/sub-benches.mjs: the agent loop, its memory,
 * MCP, isolated calls, BullMQ, the heap under a standing backlog), each in a child process; their
 * targets join the list, so one run prints every target of the project as met or missed.
 *
 * Writes the tables and targets to stdout, and everything to bench/results.json.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { concurrencyScenario } from "./lib/concurrency.mjs";
import { deadline } from "./lib/deadline.mjs";
import { perCall } from "./lib/per-call.mjs";
import { queuedJob } from "./lib/queued.mjs";
import { scalingJob } from "./lib/scaling.mjs";
import { contractOf, limitOf, maxCalls, SETTINGS } from "./lib/settings.mjs";
import { loadSystem, SYSTEM_NAMES } from "./lib/systems.mjs";
import { printTable } from "./lib/table.mjs";
import { runSubBench, SUB_BENCHES } from "./lib/sub-benches.mjs";
import { evaluateTargets } from "./lib/targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const TABLE_SCENARIOS = ["sync", "async", "deadline", "concurrency", "scaling", "queued"];
const ALL_SCENARIOS = [...TABLE_SCENARIOS, ...Object.keys(SUB_BENCHES)];

const args = process.argv.slice(2);
if (args[0] === "--child") {
  await child(JSON.parse(args[1]));
} else {
  await main(args);
}

async function main(argv) {
  const mode = SETTINGS[argv.includes("--quick") ? "quick" : "full"];
  const onlyAt = argv.indexOf("--only");
  const scenarios = onlyAt === -1 ? ALL_SCENARIOS : argv[onlyAt + 1].split(",");
  for (const s of scenarios) if (!ALL_SCENARIOS.includes(s)) fail(`unknown scenario ${s}; known: ${ALL_SCENARIOS.join(", ")}`);
  preflight();
  const started = performance.now();
  console.log(`toolrx bench (${mode.name}) on ${machine()}`);

  const { systems, missing } = await loadAll(SYSTEM_NAMES);
  const loaded = (names) => systems.filter((s) => names.includes(s.name));
  const rows = [];
  const subTargets = [];
  const failedBenches = [];
  for (const scenario of scenarios) {
    const t = performance.now();
    if (scenario in SUB_BENCHES) {
      console.error(`  ${scenario}: bench/${SUB_BENCHES[scenario].script}`);
      const { failed, targets } = await runSubBench(scenario, mode);
      subTargets.push(...targets);
      if (failed) failedBenches.push(SUB_BENCHES[scenario].script);
    } else if (scenario === "sync" || scenario === "async") {
      rows.push(...(await perCall(scenario, systems, mode)));
      const alone = [];
      for (const system of loaded(mode.alone)) alone.push(await inChild({ job: "alone", scenario, system: system.name, mode: mode.name }));
      rows.push(...aloneRatios(alone, systems));
    } else if (scenario === "deadline") {
      rows.push(...(await deadline(systems, mode)));
    } else if (scenario === "concurrency") {
      rows.push(...(await concurrencyScenario(systems, mode)));
    } else if (scenario === "scaling") {
      for (const n of mode.scalingSizes) {
        for (const system of loaded(mode.scalingSystems)) {
          if (n <= maxCalls(system, mode)) rows.push(await inChild({ job: "scaling", system: system.name, n, mode: mode.name }));
          else
            rows.push(
              notRun(
                "scaling",
                system.name,
                n,
                `not run: more than the ${maxCalls(system, mode).toLocaleString("en-US")} calls it runs in reasonable time in ${mode.name} mode`,
              ),
            );
        }
      }
    } else {
      // The hanging cases wait for their watchdog doing nothing, so they run side by side.
      const { mergeMap, toolrx, watchdogMs } = mode.queued;
      const jobs = [...mergeMap.map((n) => ["floor", n]), ...toolrx.map((n) => ["toolrx-stream", n])];
      rows.push(...(await Promise.all(jobs.map(([system, n]) => inChild({ job: "queued", system, n, watchdogMs }, watchdogMs)))));
    }
    if (TABLE_SCENARIOS.includes(scenario) && scenario !== "queued") for (const [name, reason] of missing) rows.push(notRun(scenario, name, null, reason));
    console.error(`  ${scenario}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const targets = [...evaluateTargets(rows), ...subTargets];
  printTable(rows, targets);
  const outAt = argv.indexOf("--out");
  const file = outAt === -1 ? join(here, "results.json") : resolve(argv[outAt + 1]);
  mkdirSync(dirname(file), { recursive: true });
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  writeFileSync(file, `${JSON.stringify({ mode: mode.name, machine: machine(), seconds, targets, rows }, null, 2)}\n`);
  console.log(`\n${rows.length} rows and ${targets.length} targets written to ${file} in ${seconds} s`);
  if (failedBenches.length > 0) fail(`${failedBenches.join(", ")} failed (its output is above)`);
}

/** A job in a fresh process: one system alone, one scaling size, or one queued case. */
async function child(job) {
  const system = await loadSystem(job.system);
  let result;
  if (job.job === "alone") [result] = await perCall(job.scenario, [system], SETTINGS[job.mode]);
  else if (job.job === "scaling") result = await scalingJob(system, job.n, SETTINGS[job.mode]);
  else result = await queuedJob(system, job.n, job.watchdogMs);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // A hung run's pending timers must not keep the process alive once it has answered.
  process.exit(0);
}

/**
 * Runs `job` in a child with --expose-gc (memory is measured as heap after GC). A queued case
 * whose child dies (a stack overflow reported asynchronously) becomes a row saying so.
 */
function inChild(job, watchdogMs) {
  const argv = ["--expose-gc", fileURLToPath(import.meta.url), "--child", JSON.stringify(job)];
  // The child's own watchdog answers first; this one catches a child too busy to run it.
  const timeout = watchdogMs === undefined ? 0 : watchdogMs + 30_000;
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024, timeout }, (error, stdout, stderr) => {
      const line = stdout.trim().split("\n").at(-1);
      if (!error && line) return resolvePromise(JSON.parse(line));
      if (job.job !== "queued") return reject(new Error(`${job.system} (${job.job}) failed: ${stderr || error?.message}`));
      const thrown = stderr.split("\n").find((l) => /^\w*Error\b/.test(l)) ?? (error?.killed ? "killed by the watchdog" : `exit code ${error?.code}`);
      resolvePromise({ scenario: "queued", system: job.system, n: job.n, concurrency: 16, outcome: "crashed", note: thrown.trim() });
    });
  });
}

/** `-alone` rows: the systems run each in a process of their own, with ratios between them. */
function aloneRatios(alone, systems) {
  const byName = new Map(alone.map((row) => [row.system, row]));
  const versus = (row, other) => {
    const ref = byName.get(other);
    return ref && ref !== row ? { median: Number((row.cpuUsPerCall / ref.cpuUsPerCall).toFixed(2)), p25: null, p75: null } : null;
  };
  return alone.map((row) => {
    const system = systems.find((s) => s.name === row.system);
    return {
      ...row,
      system: `${row.system}-alone`,
      xFloor: versus(row, "floor"),
      xContract: versus(row, contractOf(system)),
      xLimit: versus(row, limitOf(system)),
      note: "alone in a process of its own",
    };
  });
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
  return { scenario, system, n, note };
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
