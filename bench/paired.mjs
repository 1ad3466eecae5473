#!/usr/bin/env node
/**
 * Per-call cost of two builds of toolrx, paired round by round in one process, by process CPU
 * time (wall time swings on a shared machine). Used to show that a change costs the plain
 * path nothing measurable.
 *
 *   node bench/paired.mjs <before-dist-dir> [after-dist-dir] [--rounds 15] [--calls 10000]
 *
 * Scenarios: sync handlers, async handlers under the default 30 s deadline (both with zod
 * validation and JSON encoding, limit 16), sync handlers through `runToolCalls`, `runAgent`
 * over a scripted model (100 turns of 10 of the same calls: the loop's cost per call), the same
 * with a `MemoryJournalStore` journal, and, on the "after" build when it has `ctx.progress`, the
 * cost of one progress report to an `onCallReport` listener.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const dirs = argv.filter((a, i) => !a.startsWith("--") && !argv[i - 1]?.startsWith("--"));
const rounds = flag("--rounds", 15);
const n = flag("--calls", 10_000);
const builds = await Promise.all(
  (dirs.length === 1 ? [dirs[0], "dist"] : dirs).map(async (dir) => ({
    dir,
    lib: await import(pathToFileURL(resolve(dir, "index.js")).href),
    testing: await import(pathToFileURL(resolve(dir, "testing", "index.js")).href),
  })),
);

const calls = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "work", arguments: { i } }));
const schema = z.object({ i: z.number() });

function run(lib, handler, extra = {}) {
  const tool = lib.defineTool({ name: "work", description: "", schema, handler });
  const opts = { maxConcurrency: 16, ...extra };
  return new Promise((res, rej) => {
    let events = 0;
    lib.streamToolCalls(calls, [tool], opts).subscribe({ next: () => events++, error: rej, complete: () => res(events) });
  });
}

function cpuMicros() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function measure(fn) {
  const t = cpuMicros();
  await fn();
  return (cpuMicros() - t) / n;
}

const scenarios = {
  sync: (lib) => run(lib, ({ i }) => lib.ok(i)),
  // What the deadline costs a synchronous call: one clock read after the handler returns.
  "sync, no deadline": (lib) => run(lib, ({ i }) => lib.ok(i), { toolTimeout: Infinity }),
  async: (lib) => run(lib, async ({ i }) => lib.ok(i)),
  // The same sync calls collected into ordered messages, as runToolCalls' user gets them.
  "runToolCalls, sync": async (lib) => {
    const tool = lib.defineTool({ name: "work", description: "", schema, handler: ({ i }) => lib.ok(i) });
    const { messages } = await lib.runToolCalls(calls, [tool], { maxConcurrency: 16 });
    if (messages.length !== n) throw new Error(`runToolCalls: ${messages.length} messages`);
  },
};

/** The loop: `n` calls as 100 turns of n / 100, one run; `scripts` are built once per build. */
const TURNS = 100;
const loopScript = Array.from({ length: TURNS }, (_, t) => [
  ...Array.from({ length: n / TURNS }, (_, c) => ({ type: "tool_call", call: { id: `t${t}c${c}`, name: "work", arguments: { i: c } } })),
  { type: "finish", reason: "tool_calls" },
]);
async function loop(lib, journal) {
  const build = builds.find((b) => b.lib === lib);
  const tool = lib.defineTool({ name: "work", description: "", schema, handler: ({ i }) => lib.ok(i) });
  const result = await lib.runAgent({
    model: build.testing.scriptedModel(loopScript),
    tools: [tool],
    messages: [{ role: "user", content: "go" }],
    maxTurns: TURNS,
    ...(journal === undefined ? {} : { journal }),
  });
  if (result.messages.length !== 1 + TURNS + n) throw new Error(`runAgent: ${result.messages.length} messages`);
}
scenarios["runAgent, sync"] = loop;
/** The same run with an in-memory journal (a store per build, each run its own conversation, dropped at its end). */
let journaled = 0;
const stores = new Map();
scenarios["runAgent, journal"] = (lib) => {
  if (!stores.has(lib)) stores.set(lib, new lib.MemoryJournalStore());
  return loop(lib, { store: stores.get(lib), conversationKey: `paired-${journaled++}`, retainMs: 0 });
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, scenario] of Object.entries(scenarios)) {
  const per = builds.map(() => []);
  for (let r = 0; r < rounds + 3; r++) {
    // Alternate which build goes first, so neither always runs on a warmer heap.
    const order = r % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => i).reverse();
    for (const i of order) {
      const us = await measure(() => scenario(builds[i].lib));
      if (r >= 3) per[i].push(us);
    }
  }
  const line = builds.map((b, i) => `${b.dir}: ${median(per[i]).toFixed(3)} µs/call`).join("   ");
  const ratios = per[0].map((b, r) => per[1][r] / b);
  console.log(
    `${name.padEnd(17)} ${line}   after/before median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)})`,
  );
}

const after = builds.at(-1).lib;
const reports = 100;
const probe = after.defineTool({ name: "work", description: "", schema, handler: (_a, ctx) => after.ok(typeof ctx.progress) });
const hasProgress = await new Promise((res) =>
  after.streamToolCalls(calls.slice(0, 1), [probe]).subscribe((e) => e.type === "tool_result_encoded" && res(e.content === "function")),
);
if (hasProgress) {
  let seen = 0;
  const onCallReport = () => seen++;
  for (const [label, extra] of [
    ["listener", { onCallReport }],
    ["listener + toolIdleTimeout", { onCallReport, toolIdleTimeout: 60_000 }],
  ]) {
    const withReports = [];
    const without = [];
    for (let r = 0; r < rounds + 3; r++) {
      const a = await measure(() =>
        run(
          after,
          (_args, ctx) => {
            for (let k = 0; k < reports; k++) ctx.progress({ progress: k, total: reports });
            return after.ok(1);
          },
          extra,
        ),
      );
      const b = await measure(() => run(after, () => after.ok(1), extra));
      if (r >= 3) {
        withReports.push(a);
        without.push(b);
      }
    }
    const perReport = (median(withReports) - median(without)) / reports;
    console.log(`progress (${label}): ${(perReport * 1000).toFixed(0)} ns per report (${reports} reports per call)`);
  }
  if (seen === 0) throw new Error("no report reached the listener");
}
