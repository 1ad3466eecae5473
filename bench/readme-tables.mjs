#!/usr/bin/env node
/**
 * The benchmark tables of docs/benchmarks.md, made from a results file instead of copied by hand.
 *
 *   node bench/readme-tables.mjs [bench/results.json]
 *
 * Prints Markdown: per-call costs (sync and async side by side), the targets, memory, queued
 * synchronous calls, deadline lateness, and the concurrency sentence.
 */
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? new URL("results.json", import.meta.url);
const { mode, machine, seconds, targets, rows } = JSON.parse(readFileSync(file, "utf8"));

const LABELS = {
  floor: "bare `mergeMap` (the floor)",
  "floor-timeout": "`mergeMap` + RxJS `timeout`",
  "contract-stream": "the contract's limit, streaming",
  "contract-batch": "the contract's limit, with ordered messages",
  "limit-stream": "the old limit, streaming",
  "limit-batch": "the old limit, with ordered messages",
  "toolrx-stream": "toolrx `streamToolCalls`",
  "toolrx-batch": "toolrx `runToolCalls`",
  "p-limit": "p-limit + `Promise.all` (no deadline)",
  "ai-sdk": "AI SDK 6 `generateText`",
  langgraph: "LangGraph 1.7 `ToolNode`",
  "openai-agents": "OpenAI Agents SDK 0.20 `Runner`",
  "bare-settimeout": "one bare `setTimeout` per call, nothing else (the machine's noise)",
};

function label(system, { bold = true, n, usual } = {}) {
  const alone = system.endsWith("-alone");
  const base = alone ? system.slice(0, -"-alone".length) : system;
  let text = LABELS[base] ?? base;
  if (n !== undefined && usual !== undefined && n !== usual) text += ` (at ${n.toLocaleString("en-US")} calls)`;
  if (alone) text += ", alone";
  return bold && !alone && base.startsWith("toolrx") ? `**${text}**` : text;
}

const num = (x) => (x === null || x === undefined ? "—" : x.toLocaleString("en-US", { maximumFractionDigits: 3 }));
function ratio(r) {
  if (r === null || r === undefined) return "—";
  const spread = r.p25 === null || r.p25 === undefined ? "" : ` (${r.p25}–${r.p75})`;
  return `${r.median}×${spread}`;
}
const of = (scenario) => rows.filter((r) => r.scenario === scenario);

console.log(`<!-- ${mode} run, ${machine}, ${Math.round(seconds)} s -->\n`);

// Per call: sync and async side by side.
const sync = of("sync");
const async = of("async");
console.log("| system | sync: CPU µs/call | × contract | × mergeMap | × old limit | async, deadline on: CPU µs/call | × contract | × mergeMap | × old limit |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const s of sync) {
  const a = async.find((r) => r.system === s.system);
  const perCall = (r) => (r ? [num(r.cpuUsPerCall), ratio(r.xContract), ratio(r.xFloor), ratio(r.xLimit)] : ["—", "—", "—", "—"]);
  console.log(`| ${label(s.system, { n: s.n, usual: 10_000 })} | ${[...perCall(s), ...perCall(a)].join(" | ")} |`);
}

console.log("\n| target | | this run |\n|---|---|---|");
for (const t of targets)
  console.log(
    `| ${t.target.replace(/(streamToolCalls|runToolCalls)/, "`$1`")} | ${t.row === true ? "measured" : t.met === null ? "n/a" : t.met ? "met" : "**missed**"} | ${t.figure} |`,
  );

// Memory: the 100,000 and 1,000,000 call runs side by side.
const scaling = of("scaling");
const sizes = [100_000, 1_000_000];
console.log(
  "\n| system | 100,000 calls: CPU µs/call | heap mid-run | held after, per call | 1,000,000 calls: CPU µs/call | heap mid-run | held after, per call |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
const memorySystems = ["floor", "limit-stream", "toolrx-stream", "limit-batch", "toolrx-batch", "p-limit"];
for (const system of memorySystems) {
  const cells = sizes.flatMap((n) => {
    const r = scaling.find((x) => x.system === system && x.n === n);
    if (!r || r.cpuUsPerCall === undefined) return ["—", "—", "—"];
    return [num(r.cpuUsPerCall), `${Math.max(0, r.heapMidRunMb).toFixed(2)} MB`, `${Math.max(0, Math.round(r.retainedBytesPerCall))} B`];
  });
  if (cells.some((c) => c !== "—")) console.log(`| ${label(system)} | ${cells.join(" | ")} |`);
}

console.log("\n| system | queued sync calls | outcome |\n|---|---:|---|");
for (const r of of("queued")) {
  const system = r.system === "floor" ? "bare `mergeMap`" : label(r.system);
  let outcome =
    r.outcome === "hung"
      ? `**hung**: ${r.note.replace(/^stood still for 2 s: no handler started, no CPU used, /, "stood still 2 s with ")}`
      : `completed, ${r.note}`;
  // Per-call CPU means something only once the 20 ms of the slow calls is spread over many.
  if (r.outcome === "ok" && r.n >= 1_000_000) outcome += `, ${num(r.cpuUsPerCall)} µs/call CPU`;
  console.log(`| ${system} | ${r.n.toLocaleString("en-US")} | ${outcome} |`);
}

console.log("\n| system | calls | late, median | late, p99 |\n|---|---:|---:|---:|");
for (const r of of("deadline").filter((x) => x.lateMedianMs !== null)) {
  const system = r.system === "limit-stream" ? "the old limit, streaming (a pool with one `setTimeout` per call)" : label(r.system);
  console.log(`| ${system} | ${r.n.toLocaleString("en-US")} | ${r.lateMedianMs} ms | ${r.lateP99Ms} ms |`);
}

const eff = Object.fromEntries(of("concurrency").map((r) => [r.system, r]));
console.log(
  `\nConcurrency (64 handlers sleeping 20 ms at limit 8, ideal 160 ms of wall time): toolrx reaches ${eff["toolrx-stream"]?.efficiency} (\`streamToolCalls\`) and ${eff["toolrx-batch"]?.efficiency} (\`runToolCalls\`), bare \`mergeMap\` ${eff.floor?.efficiency}, p-limit ${eff["p-limit"]?.efficiency}; ${peers(eff)}.`,
);

function peers(eff) {
  const unlimited = ["ai-sdk", "langgraph"].filter((s) => eff[s] !== undefined && eff[s].efficiency === null).map((s) => LABELS[s]);
  const parts = [];
  if (unlimited.length > 0) parts.push(`${unlimited.join(" and ")} run all 64 at once (no limit)`);
  for (const s of ["ai-sdk", "langgraph", "openai-agents"]) {
    if (eff[s] !== undefined && eff[s].efficiency !== null) parts.push(`${LABELS[s]} reaches ${eff[s].efficiency}`);
  }
  return parts.join("; ");
}
