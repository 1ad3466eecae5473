#!/usr/bin/env node --expose-gc
/**
 * Memory under a streamed backlog (issue 9.12): calls streamed into `streamToolCalls` with 16
 * always queued behind 4 running, heap after GC printed at 10k, 100k and 1M calls.
 *
 *   npm run -s build && node --expose-gc bench/backlog.mjs [dist-dir]
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Subject } from "rxjs";
import { z } from "zod";

const dir = process.argv[2] ?? "dist";
const { defineTool, ok, streamToolCalls } = await import(pathToFileURL(resolve(dir, "index.js")).href);
const checkpoints = new Set([10_000, 100_000, 1_000_000]);
const total = 1_000_000;
const tool = defineTool({ name: "t", description: "", schema: z.object({ i: z.number() }), handler: async ({ i }) => ok(i) });
const calls = new Subject();
let pushed = 0;
const push = () => calls.next({ id: `c${pushed}`, name: "t", arguments: { i: pushed++ } });
const mb = (n) => `${(n / 2 ** 20).toFixed(1)} MB`;
await new Promise((done, fail) => {
  let completed = 0;
  streamToolCalls(calls, [tool], { maxConcurrency: 4 }).subscribe({
    next(e) {
      if (e.type !== "tool_result_encoded") return;
      completed++;
      if (checkpoints.has(completed)) {
        globalThis.gc();
        const { heapUsed } = process.memoryUsage();
        console.log(`${String(completed).padStart(9)} calls: heap after GC ${mb(heapUsed)}, rss ${mb(process.memoryUsage().rss)}`);
      }
      if (pushed < total) push();
      else if (completed === total) calls.complete();
    },
    error: fail,
    complete: done,
  });
  for (let i = 0; i < 20; i++) push();
});
