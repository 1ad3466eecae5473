#!/usr/bin/env node
/**
 * Per-call cost of two builds of toolrx side by side, in one process, in alternating rounds, so
 * the machine's drift (other work on shared cores) hits both alike. For checking that a change
 * does not make the happy path (a plain ok({...}) from a sync or an async handler) dearer.
 *
 *   node bench/compare-builds.mjs <before/dist/index.js> <after/dist/index.js> [rounds=31]
 *
 * Prints the median µs per call of each build for 10,000 calls at concurrency 16.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [beforePath, afterPath, roundsArg = "31"] = process.argv.slice(2);
if (!beforePath || !afterPath) throw new Error("usage: node bench/compare-builds.mjs <before index.js> <after index.js> [rounds]");
const builds = [
  ["before", await import(pathToFileURL(resolve(beforePath)).href)],
  ["after", await import(pathToFileURL(resolve(afterPath)).href)],
];
const rounds = Number(roundsArg);
const n = 10_000;
const schema = { type: "object", properties: { i: { type: "number" } }, required: ["i"] };
const calls = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "t", arguments: { i } }));

const cases = {
  "sync ok, runToolCalls": (lib) => [lib.defineTool({ name: "t", description: "", schema, handler: ({ i }) => lib.ok({ i }) }), "batch"],
  "async ok, runToolCalls": (lib) => [lib.defineTool({ name: "t", description: "", schema, handler: async ({ i }) => lib.ok({ i }) }), "batch"],
  "sync ok, streamToolCalls": (lib) => [lib.defineTool({ name: "t", description: "", schema, handler: ({ i }) => lib.ok({ i }) }), "stream"],
};

function runOnce(lib, tool, how) {
  if (how === "batch") return lib.runToolCalls(calls, [tool], { maxConcurrency: 16 }).then((r) => r.messages.length);
  return new Promise((res, rej) => {
    let count = 0;
    lib.streamToolCalls(calls, [tool], { maxConcurrency: 16 }).subscribe({
      next: (e) => (e.type === "tool_result_encoded" ? count++ : 0),
      error: rej,
      complete: () => res(count),
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [label, make] of Object.entries(cases)) {
  const prepared = builds.map(([name, lib]) => [name, lib, ...make(lib)]);
  const times = new Map(prepared.map(([name]) => [name, []]));
  for (let r = 0; r < rounds + 5; r++) {
    for (let k = 0; k < prepared.length; k++) {
      const [name, lib, tool, how] = prepared[(k + r) % prepared.length];
      const start = performance.now();
      const done = await runOnce(lib, tool, how);
      const ms = performance.now() - start;
      if (done !== n) throw new Error(`${name}: ${done} of ${n} calls answered`);
      if (r >= 5) times.get(name).push(ms); // the first rounds warm the compiler up
    }
  }
  const [b, a] = [median(times.get("before")), median(times.get("after"))];
  console.log(`${label.padEnd(26)} before ${(b / 10).toFixed(3)} µs/call   after ${(a / 10).toFixed(3)} µs/call   (${((a / b - 1) * 100).toFixed(1)}%)`);
}
