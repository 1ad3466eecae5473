#!/usr/bin/env node
/**
 * Deadline precision under load: 1,000 never-settling handlers with a 50 ms deadline, all at
 * once; lateness is when each call's `timeout` completes minus its handler's start plus 50 ms.
 * Builds are run alternately, round by round, in one process.
 *
 *   node bench/lateness.mjs <dist-dir> [<dist-dir> ...] [--rounds 7]
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const argv = process.argv.slice(2);
const at = argv.indexOf("--rounds");
const rounds = at === -1 ? 7 : Number(argv[at + 1]);
const dirs = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--rounds");
const builds = await Promise.all(dirs.map(async (dir) => ({ dir, lib: await import(pathToFileURL(resolve(dir, "index.js")).href) })));
const n = 1_000;
const deadline = 50;

function once(lib) {
  const started = new Map();
  const tool = lib.defineTool({
    name: "never",
    description: "",
    schema: z.object({}),
    handler: (_a, ctx) => {
      started.set(ctx.toolCall.id, performance.now());
      return new Promise(() => {});
    },
  });
  const calls = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: "never", arguments: {} }));
  const late = [];
  return new Promise((done) =>
    lib.streamToolCalls(calls, [tool], { maxConcurrency: n, toolTimeout: deadline }).subscribe({
      next: (e) => {
        if (e.type === "tool_execution_completed") late.push(performance.now() - started.get(e.toolCallId) - deadline);
      },
      complete: () => done(late),
    }),
  );
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const results = builds.map(() => ({ p50: [], p99: [] }));
for (let r = 0; r < rounds + 1; r++) {
  for (const [i, b] of builds.entries()) {
    const late = await once(b.lib);
    if (r > 0) {
      results[i].p50.push(pct(late, 0.5));
      results[i].p99.push(pct(late, 0.99));
    }
  }
}
for (const [i, b] of builds.entries()) {
  const { p50, p99 } = results[i];
  console.log(`${b.dir}: lateness median ${pct(p50, 0.5).toFixed(1)} ms, p99 ${pct(p99, 0.5).toFixed(1)} ms (medians over ${rounds} rounds)`);
}
