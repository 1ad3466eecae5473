#!/usr/bin/env node
/**
 * Memory under a standing backlog: calls streamed into `streamToolCalls`, 16 always queued
 * behind 4 running, heap after a full GC at 10k, 100k and 1M calls (300k with --quick). The
 * target: the heap stays flat, within 1 MB (or 10%, whichever is more) of the first checkpoint;
 * a runner that kept anything per finished call would grow by tens of MB by the last one.
 *
 *   npm run -s build && node --expose-gc bench/backlog.mjs [--quick] [--dist dir]
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Subject } from "rxjs";
import { z } from "zod";
import { reportTargets } from "./lib/report-targets.mjs";
import { heapAfterGc } from "./lib/stats.mjs";

const distAt = process.argv.indexOf("--dist");
const dir = distAt === -1 ? "dist" : process.argv[distAt + 1];
const { defineTool, ok, streamToolCalls } = await import(pathToFileURL(resolve(dir, "index.js")).href);
const checkpoints = process.argv.includes("--quick") ? [10_000, 100_000, 300_000] : [10_000, 100_000, 1_000_000];
const total = checkpoints.at(-1);
const tool = defineTool({ name: "t", description: "", schema: z.object({ i: z.number() }), handler: async ({ i }) => ok(i) });
const calls = new Subject();
let pushed = 0;
const push = () => calls.next({ id: `c${pushed}`, name: "t", arguments: { i: pushed++ } });
const mb = (n) => `${(n / 2 ** 20).toFixed(1)} MB`;
const heaps = [];
await new Promise((done, fail) => {
  let completed = 0;
  streamToolCalls(calls, [tool], { maxConcurrency: 4 }).subscribe({
    next(e) {
      if (e.type !== "tool_result_encoded") return;
      completed++;
      if (checkpoints.includes(completed)) {
        const heap = heapAfterGc();
        heaps.push(heap);
        console.log(`${String(completed).padStart(9)} calls: heap after GC ${mb(heap)}, rss ${mb(process.memoryUsage().rss)}`);
      }
      if (pushed < total) push();
      else if (completed === total) calls.complete();
    },
    error: fail,
    complete: done,
  });
  for (let i = 0; i < 20; i++) push();
});

const [first, ...later] = heaps;
const growth = Math.max(...later.map((h) => h - first));
const allowed = Math.max(2 ** 20, first * 0.1);
const counts = checkpoints.map((n) => n.toLocaleString("en-US")).join(" / ");
reportTargets([
  {
    id: "heap-flat",
    target: `heap flat at ${counts} streamed calls with a standing backlog (within ${mb(allowed)} of the first)`,
    met: growth <= allowed,
    figure: `${heaps.map(mb).join(" / ")} after GC (largest growth ${growth >= 0 ? "+" : ""}${mb(growth)})`,
  },
]);
