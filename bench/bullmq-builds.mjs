#!/usr/bin/env node
/**
 * toolrx/bullmq of two or more builds side by side, paired round by round over one Redis, with
 * bare BullMQ beside them as the reference: the same trivial call at one number of calls in
 * flight, one warm worker process per system. CPU per call of the producer (this process), each
 * worker process (/proc) and Redis (INFO cpu), and throughput; each build's ratios are taken
 * within a round against the first build and against bare BullMQ (median, 25th–75th
 * percentile), so load from other work hits all alike. For finding which commit made the remote
 * path dearer, and for showing that a change made it cheaper.
 *
 *   node bench/bullmq-builds.mjs <dist-dir> [<dist-dir> ...] [--calls 1000] [--rounds 7] [--in-flight 64]
 *
 * A dist-dir is a build's `dist/` (`npm run build`, or `tsup` in a checkout of the commit).
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { z } from "zod";
import { alternatingRounds, bareSystem, ownRedis, paired, serveWorker, toolrxSystem } from "./lib/bullmq-systems.mjs";
import { median, round } from "./lib/stats.mjs";

const load = (dir, sub) => import(pathToFileURL(resolve(dir, sub, "index.js")).href);
const noopOf = (lib) => lib.defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => lib.ok(i) });
const script = fileURLToPath(import.meta.url);

if (process.argv[2] === "--worker") {
  const [, , , dir, url, queue, concurrency] = process.argv;
  let toolrx;
  if (dir !== "bare") {
    const [lib, { bullmqWorker }] = await Promise.all([load(dir, "."), load(dir, "bullmq")]);
    toolrx = { bullmqWorker, tool: noopOf(lib) };
  }
  await serveWorker(url, queue, Number(concurrency), toolrx);
} else {
  await main();
}

async function main() {
  const argv = process.argv.slice(2);
  const flag = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
  const dirs = argv.filter((a, i) => !a.startsWith("--") && !argv[i - 1]?.startsWith("--"));
  if (dirs.length === 0) throw new Error("usage: node bench/bullmq-builds.mjs <dist-dir> [<dist-dir> ...] [--calls n] [--rounds n] [--in-flight n]");
  const calls = flag("--calls", 1_000);
  const rounds = flag("--rounds", 7);
  const inFlight = flag("--in-flight", 64);
  const redis = await ownRedis();
  const info = new Redis(redis.url);
  const stamp = Date.now();
  const short = (dir) => (dir.replace(/\/+$/, "").endsWith("dist") ? (dir.replace(/\/+$/, "").split("/").at(-2) ?? dir) : dir);
  // Built inside the try: a build that fails to load must not leave the others' workers and Redis running.
  const systems = {};
  let got;
  try {
    systems.bare = await bareSystem({ script, url: redis.url, queue: `bb-bare-${stamp}`, concurrency: inFlight });
    for (const [i, dir] of dirs.entries()) {
      const [lib, { bullmqExecutor }] = await Promise.all([load(dir, "."), load(dir, "bullmq")]);
      const queue = `bb-${i}-${stamp}`;
      systems[short(dir)] = await toolrxSystem({ script, kind: dir, url: redis.url, queue, concurrency: inFlight, lib, bullmqExecutor, tool: noopOf(lib) });
    }
    got = await alternatingRounds(systems, info, { calls, rounds, inFlight, warmup: 300 });
  } finally {
    await Promise.all(Object.values(systems).map((s) => s.close()));
    info.disconnect();
    redis.stop();
  }
  const spread = (x) => `${x.median}× (${x.p25}–${x.p75})`;
  const first = short(dirs[0]);
  console.log(`BullMQ, ${inFlight} in flight, ${calls} calls per round, ${rounds} rounds, one worker process each`);
  console.table(
    Object.entries(got).map(([name, runs]) => {
      const m = (key) => round(median(runs.map((x) => x[key])), 0);
      const row = { system: name, "calls/s": m("perSecond"), "producer µs": m("producer"), "worker µs": m("worker"), "redis µs": m("redis") };
      if (name === "bare") return row;
      return {
        ...row,
        "worker × bare": spread(paired(runs, got.bare, "worker")),
        "calls/s × bare": spread(paired(runs, got.bare, "perSecond")),
        [`worker × ${first}`]: spread(paired(runs, got[first], "worker")),
        [`producer × ${first}`]: spread(paired(runs, got[first], "producer")),
        [`calls/s × ${first}`]: spread(paired(runs, got[first], "perSecond")),
      };
    }),
  );
}
