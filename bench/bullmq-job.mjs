#!/usr/bin/env node
/**
 * A BullMQ worker's per-job path in-process, without Redis: the processor BullMQ calls (reading
 * the job, the one-call runner, the answer) over 2,000 jobs of a trivial synchronous tool at 64 in
 * flight, each awaited as BullMQ's \`processJob\` awaits its processor. One or more src trees are
 * bundled with esbuild (\`git archive <commit> src | tar -x -C <dir>\` for an older one; a tree
 * without src/bullmq/job-processor.ts runs the processor as 1ecf508's bullmq-worker.ts wrote it).
 *
 *   node bench/bullmq-job.mjs alloc|promises|cpu <src-parent-dir> [<src-parent-dir> ...]
 *
 * alloc: bytes per job (V8's sampling heap profiler, objects collected by GC included, the
 * harness's job fixtures subtracted; TOP=n lists the top allocation sites, best run with
 * --no-turbo-inlining). promises: promises made per job (async_hooks; the harness's own await
 * per job included). cpu: CPU per job, alternating rounds (ROUNDS, default 15), paired against the
 * first tree; trees share zod and rxjs, so the order they run in moves the figure: run both orders.
 * ASYNC=1: the tool's handler returns a promise (the default answers at once).
 */
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { Session } from "node:inspector/promises";
import { createHook } from "node:async_hooks";
import { z } from "zod";
const [mode, ...bundles] = process.argv.slice(2);
const N = 2000,
  IN_FLIGHT = 64;
async function systemOf(path) {
  const m = await import(path);
  // ASYNC=1: a handler that returns a promise, as most real ones do.
  const handler = globalThis.process.env.ASYNC === "1" ? async ({ i }) => m.ok(i) : ({ i }) => m.ok(i);
  const tool = m.defineTool({ name: "noop", description: "", schema: z.object({ i: z.number() }), handler });
  const runJob = m.callJobRunner({ tools: [tool], executor: undefined, validateArguments: true, context: {}, settleGrace: 5000 });
  const cancels = new m.WorkerCancels(15000);
  cancels.subscribed();
  const commands = { pipeline: () => ({ set() {}, exec: async () => [] }), get: async () => null, defineCommand() {} };
  const heartbeats = new m.JobHeartbeats(commands, (id) => `hb:${id}`, "");
  let process;
  if (m.jobProcessor) {
    const lanes = { hold() {}, release: async () => {}, forget() {} };
    process = m.jobProcessor({ runJob, heartbeats, lanes, cancels, readMarker: async () => null, handlers: new Set() });
  } else {
    // base's process, as in its bullmq-worker.ts
    const lanes = { hold() {}, async release() {} };
    const handlers = new Set();
    process = async (job) => {
      const jobId = job.id;
      const call = m.readCallJob(job.name, jobId, job.data);
      heartbeats.start(jobId, call.heartbeat);
      lanes.hold(jobId, call.lanes);
      const { signal, cancelled } = cancels.begin(jobId);
      try {
        const marker = cancelled ?? (cancels.channelTrusted() ? null : await commands.get(jobId));
        if (marker !== null) return m.jobReturnOf({ cancelled: marker, started: false }, call.v);
        const handling = runJob(call, signal.asAbortSignal(), (update) => {
          job.updateProgress(update).catch(() => undefined);
        });
        handlers.add(handling);
        try {
          return m.jobReturnOf(await handling, call.v);
        } finally {
          handlers.delete(handling);
        }
      } finally {
        heartbeats.stop(jobId);
        cancels.end(jobId);
        await lanes.release(jobId, call.lanes);
      }
    };
  }
  let k = 0;
  const jobs = () =>
    Array.from({ length: N }, (_, i) => ({
      id: `q${k}|c${i}`,
      name: "toolrx.call",
      data: { v: 2, name: "noop", args: { i } },
      updateProgress: async () => {},
    }));
  const run = async () => {
    k++;
    const js = jobs();
    let next = 0;
    // as BullMQ: `await processFn(job)` per slot
    const lane = async () => {
      while (next < js.length) {
        const j = js[next++];
        const r = await process(j);
        if (r.ok !== j.data.args.i) throw new Error(`bad ${JSON.stringify(r)}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  };
  return { run, jobs };
}
const ENTRY = `export { callJobRunner } from "./src/bullmq/run-job.js";
export { readCallJob, jobReturnOf } from "./src/bullmq/call-job.js";
export { WorkerCancels } from "./src/bullmq/worker-cancels.js";
export { JobHeartbeats } from "./src/bullmq/job-heartbeats.js";
export { defineTool, ok } from "./src/index.js";
`;
/** The tree's per-job parts, bundled into .tmp/bullmq-job/<n>.mjs (zod and rxjs left to node_modules). */
async function bundleOf(dir, n) {
  const root = resolve(dir);
  const contents = ENTRY + (existsSync(resolve(root, "src/bullmq/job-processor.ts")) ? 'export { jobProcessor } from "./src/bullmq/job-processor.js";\n' : "");
  const outDir = resolve(".tmp/bullmq-job");
  mkdirSync(outDir, { recursive: true });
  const outfile = resolve(outDir, `${n}.mjs`);
  await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  return pathToFileURL(outfile).href;
}
const systems = [];
for (const [n, dir] of bundles.entries()) systems.push([dir, await systemOf(await bundleOf(dir, n))]);
for (const [, s] of systems) for (let i = 0; i < 5; i++) await s.run();
const bytes = (node) => node.selfSize + node.children.reduce((sum, c) => sum + bytes(c), 0);
if (mode === "alloc") {
  const session = new Session();
  session.connect();
  for (const [name, s] of systems) {
    const R = 30;
    await session.post("HeapProfiler.startSampling", { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    for (let i = 0; i < R; i++) await s.run();
    const { profile } = await session.post("HeapProfiler.stopSampling");
    // job fixtures are made by the harness: subtract by measuring jobs() alone
    await session.post("HeapProfiler.startSampling", { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    for (let i = 0; i < R; i++) s.jobs();
    const { profile: fx } = await session.post("HeapProfiler.stopSampling");
    console.log(`${name}: ${Math.round((bytes(profile.head) - bytes(fx.head)) / (R * N))} B per job`);
    if (process.env.TOP) {
      const flat = new Map();
      const walk = (n) => {
        const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;
        flat.set(key, (flat.get(key) ?? 0) + n.selfSize);
        n.children.forEach(walk);
      };
      walk(profile.head);
      console.log(
        [...flat]
          .sort((a, b) => b[1] - a[1])
          .slice(0, +process.env.TOP)
          .map(([k, v]) => `${Math.round(v / (R * N))}\t${k}`)
          .join("\n"),
      );
    }
  }
} else if (mode === "promises") {
  for (const [name, s] of systems) {
    let promises = 0;
    const hook = createHook({
      init(_id, type) {
        if (type === "PROMISE") promises++;
      },
    });
    hook.enable();
    await s.run();
    hook.disable();
    console.log(`${name}: ${(promises / N).toFixed(2)} promises per job (incl. the harness's own await per job)`);
  }
} else {
  const R = +(process.env.ROUNDS ?? 15);
  const got = systems.map(() => []);
  for (let r = 0; r < R; r++)
    for (let j = 0; j < systems.length; j++) {
      const idx = (j + r) % systems.length;
      const t = process.cpuUsage();
      await systems[idx][1].run();
      const d = process.cpuUsage(t);
      got[idx].push((d.user + d.system) / N);
    }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  for (let j = 0; j < systems.length; j++)
    console.log(`${systems[j][0]}: ${med(got[j]).toFixed(2)} µs per job; ×first ${med(got[j].map((x, r) => x / got[0][r])).toFixed(3)}`);
}
