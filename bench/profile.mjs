#!/usr/bin/env node
/**
 * Where one system's time goes in one per-call scenario: runs it under V8's sampling profiler
 * and prints the functions with the most self time, grouped by file.
 *
 *   node bench/profile.mjs                                  toolrx-stream, async
 *   node bench/profile.mjs --system toolrx-batch --scenario sync --calls 2000000
 *   node bench/profile.mjs --scenario deadline --calls 30000  1,000 at once timing out at 50 ms
 *   node bench/profile.mjs --out .tmp/async.cpuprofile      also save the profile (Chrome DevTools)
 *
 * Needs a build (`npm run build`). Node-only, like the rest of bench/.
 */
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { instrumented, makeCalls } from "./lib/workload.mjs";
import { checkRun } from "./lib/rounds.mjs";
import { loadSystem } from "./lib/systems.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const systemName = option("--system", "toolrx-stream");
const scenario = option("--scenario", "async");
const total = Number(option("--calls", "1000000"));
const top = Number(option("--top", "25"));
const out = option("--out", undefined);

const root = fileURLToPath(new URL("..", import.meta.url));
const system = await loadSystem(systemName);
const deadline = scenario === "deadline";
const { handler, probe } = instrumented(deadline ? "never" : scenario === "sync" ? "trivial" : "resolved");
const runner = await system.prepare(deadline ? { handler, concurrency: 1_000, deadlineMs: 50, onSettled: () => {} } : { handler, concurrency: 16 });
const n = deadline ? 1_000 : 10_000;
const calls = makeCalls(n);
const runAll = async (count) => {
  for (let done = 0; done < count; done += n) {
    probe.reset();
    checkRun(system, probe, n, await runner.run(calls));
  }
};

await runAll(Math.min(total, deadline ? 3_000 : 200_000)); // warm-up, unprofiled
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
await runAll(total);
const { profile } = await session.post("Profiler.stop");
session.disconnect();
if (out !== undefined) writeFileSync(out, JSON.stringify(profile));

// Self time per function: samples whose top frame is that function.
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const self = new Map();
for (const [id, count] of counts) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  if (functionName === "(idle)") continue;
  const file = url.startsWith("file://") ? relative(root, fileURLToPath(url)) : url || "(native)";
  const key = `${functionName || "(anonymous)"}  ${file}${url ? `:${lineNumber + 1}` : ""}`;
  self.set(key, (self.get(key) ?? 0) + count);
}
// Waiting for timers is not cost: percentages are of the samples where something ran.
const sampled = profile.samples.filter((id) => byId.get(id).callFrame.functionName !== "(idle)").length;
const perFile = new Map();
for (const [key, count] of self) {
  const file = key
    .split("  ")[1]
    .replace(/:\d+$/, "")
    .replace(/^.*node_modules\/([^/]+)\/.*$/, "$1 (node_modules)");
  perFile.set(file, (perFile.get(file) ?? 0) + count);
}
const pct = (count) => `${((100 * count) / sampled).toFixed(1).padStart(5)}%`;
console.log(`${systemName}, ${scenario}, ${total.toLocaleString("en-US")} calls, ${sampled.toLocaleString("en-US")} busy samples\n\nself time by function:`);
for (const [key, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(count)}  ${key}`);
console.log("\nself time by file:");
for (const [file, count] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${pct(count)}  ${file}`);
