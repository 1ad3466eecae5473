#!/usr/bin/env node
/**
 * Bytes allocated per call, of one or more builds: V8's sampling heap profiler, counting the
 * objects minor and major GCs collected too, over 60 runs after 5 unmeasured ones. `sync`:
 * 10,000 synchronous calls streamed at limit 16 under the default deadline; `deadline`: 1,000
 * never-settling calls timing out at once (20 ms), per expiry; `agent`: `runAgent`, 50 turns of 10
 * synchronous calls, per call; `journal`: the same with a `MemoryJournalStore` journal. Allocation, not time: a figure this
 * shared machine's load does not move (the sampling spreads it by a few percent; run it thrice).
 *
 *   node bench/allocation.mjs <dist-dir> [<dist-dir> ...] [--scenario sync|deadline|agent|journal]
 */
import { Session } from "node:inspector/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const argv = process.argv.slice(2);
const at = argv.indexOf("--scenario");
const scenario = at === -1 ? "sync" : argv[at + 1];
const dirs = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--scenario");
const ROUNDS = 60;

function runnerOf(lib, testing) {
  if (scenario === "sync") {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ id: `c${i}`, name: "work", arguments: { i } }));
    const tool = lib.defineTool({ name: "work", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => lib.ok(i) });
    return {
      n: calls.length,
      run: () => new Promise((res, rej) => lib.streamToolCalls(calls, [tool], { maxConcurrency: 16 }).subscribe({ error: rej, complete: res })),
    };
  }
  if (scenario === "agent" || scenario === "journal") {
    // The loop's per-call bytes: 50 turns of 10 synchronous calls, as bench/agent.mjs runs them
    // (with `journal`, on a MemoryJournalStore that keeps the run's entries until it ends).
    const turns = Array.from({ length: 50 }, (_, t) => [
      ...Array.from({ length: 10 }, (_, c) => ({ type: "tool_call", call: { id: `t${t}c${c}`, name: "echo", arguments: { n: c } } })),
      { type: "finish", reason: "tool_calls" },
    ]);
    const echo = lib.defineTool({ name: "echo", description: "", schema: z.object({ n: z.number() }), handler: ({ n }) => lib.ok({ n }) });
    const { scriptedModel } = testing;
    const store = scenario === "journal" ? new lib.MemoryJournalStore() : undefined;
    let key = 0;
    return {
      n: 500,
      run: () =>
        lib.runAgent({
          model: scriptedModel(turns),
          tools: [echo],
          messages: [{ role: "user", content: "go" }],
          maxTurns: 50,
          ...(store === undefined ? {} : { journal: { store, conversationKey: `a${key++}`, retainMs: 0 } }),
        }),
    };
  }
  if (scenario !== "deadline") throw new TypeError(`--scenario is sync, deadline, agent or journal, got ${scenario}`);
  const calls = Array.from({ length: 1_000 }, (_, i) => ({ id: `c${i}`, name: "never", arguments: {} }));
  const tool = lib.defineTool({ name: "never", description: "", schema: z.object({}), handler: () => new Promise(() => {}) });
  const opts = { maxConcurrency: calls.length, toolTimeout: 20 };
  return { n: calls.length, run: () => new Promise((res, rej) => lib.streamToolCalls(calls, [tool], opts).subscribe({ error: rej, complete: res })) };
}

/** The profile's estimate of the bytes allocated under each node, summed over the tree. */
const bytes = (node) => node.selfSize + node.children.reduce((sum, child) => sum + bytes(child), 0);

const session = new Session();
session.connect();
for (const dir of dirs) {
  const lib = await import(pathToFileURL(resolve(dir, "index.js")).href);
  const { n, run } = runnerOf(lib, await import(pathToFileURL(resolve(dir, "testing/index.js")).href));
  for (let i = 0; i < 5; i++) await run();
  await session.post("HeapProfiler.startSampling", { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  for (let i = 0; i < ROUNDS; i++) await run();
  const { profile } = await session.post("HeapProfiler.stopSampling");
  console.log(`${dir}: ${Math.round(bytes(profile.head) / (ROUNDS * n))} B per ${scenario === "deadline" ? "expiry" : "call"}`);
}
session.disconnect();
