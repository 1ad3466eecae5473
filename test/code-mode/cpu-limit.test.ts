import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { codeMode } from "../../src/code-mode/index.js";
import { cpuBudget } from "../../src/code-mode/cpu-budget.js";
import type { FromSandbox } from "../../src/code-mode/sandbox-message.js";
import { sandboxThread } from "../../src/code-mode/sandbox-thread.js";
import { quickjsModules } from "../../src/code-mode/sandbox-worker.js";
import { threadCpuClock } from "../../src/code-mode/thread-cpu-clock.js";
import { runToolCalls } from "../../src/index.js";

/**
 * A sandbox thread as the pool starts one, but whose wall clock (`performance.now`) runs
 * `starve` times too fast: what a thread given 1/`starve` of a CPU on a loaded machine sees,
 * without loading the machine. Its CPU clock is the kernel's, untouched; `noCpuClock` hides it
 * as a platform without /proc/thread-self does.
 */
async function starvedThread(starve: number, noCpuClock = false): Promise<Worker> {
  const load = noCpuClock ? `(id) => (id === "node:fs" ? { readFileSync: () => { throw new Error("ENOENT"); } } : require(id))` : "require";
  const source = [
    "var __name = (target) => target;",
    `const realNow = performance.now.bind(performance); performance.now = () => realNow() * ${starve};`,
    `(${sandboxThread.toString()})(${load}, ${threadCpuClock.toString()}, ${cpuBudget.toString()});`,
  ].join("\n");
  const worker = new Worker(source, { eval: true, workerData: quickjsModules() });
  await new Promise<void>((resolve, reject) => {
    worker.on("message", (m: FromSandbox) => m.type === "ready" && resolve());
    worker.on("error", reject);
  });
  return worker;
}

/** Run a script of no tool calls to its end; the process's CPU time from the start to the end (the kernel's count, in ms). */
async function run(worker: Worker, script: string, cpuMs: number): Promise<{ done: FromSandbox; cpu: number }> {
  const limits = {
    memoryBytes: 16 * 1024 * 1024,
    stackBytes: 512 * 1024,
    cpuMs,
    maxCalls: 10,
    maxArgumentBytes: 1024,
    maxInFlightBytes: 1024,
    maxResultBytes: 1024,
  };
  const before = process.cpuUsage();
  const done = await new Promise<FromSandbox>((resolve) => {
    const onMessage = (m: FromSandbox): void => {
      if (m.type !== "done") return;
      worker.off("message", onMessage);
      resolve(m);
    };
    worker.on("message", onMessage);
    worker.postMessage({ type: "run", script, names: [], limits, now: 0, seed: 1 });
  });
  const used = process.cpuUsage(before);
  worker.postMessage({ type: "stop" });
  return { done, cpu: (used.user + used.system) / 1_000 };
}

// Linux tells a thread its CPU time (/proc/thread-self); elsewhere `cpuMs` is wall time, as the last test here checks.
describe.skipIf(process.platform !== "linux" && process.env.CI !== "true")("limits.cpuMs", () => {
  const workers: Worker[] = [];
  afterAll(() => Promise.all(workers.map((w) => w.terminate())));
  const thread = async (starve: number, noCpuClock = false): Promise<Worker> => {
    const worker = await starvedThread(starve, noCpuClock);
    workers.push(worker);
    return worker;
  };

  describe("when the thread gets a quarter of a CPU", () => {
    it("ends a busy loop with cpu_time once it has run cpuMs on a CPU, not once its wall time is past cpuMs", async () => {
      const { done, cpu } = await run(await thread(4), "for (;;) {}", 400);
      expect(done).toMatchObject({ ok: false, code: "cpu_time" });
      expect(done.type === "done" && !done.ok && done.message).toBe(
        "the script ran past 400 ms of CPU time (the thread's CPU time, from /proc/thread-self/schedstat)",
      );
      // The process ran at least the thread's CPU time; by wall time the loop would have ended at about 100 ms.
      expect(cpu).toBeGreaterThanOrEqual(400);
      expect(cpu).toBeLessThan(400 + 600);
    });

    it("lets a script that runs under cpuMs on a CPU finish, though its wall time is far past cpuMs", async () => {
      const loop = "let x = 0; for (let i = 0; i < 1000000; i++) x += i; return x > 0;";
      // What the loop costs on this machine, measured with a limit it cannot reach.
      const alone = await run(await thread(1), loop, 60_000);
      expect(alone.done).toEqual({ type: "done", ok: true, value: "true" });
      expect(alone.cpu).toBeGreaterThan(15);
      // Under the limit by half in CPU time, and four times past it in the thread's wall time.
      const cpuMs = Math.ceil(alone.cpu * 2) + 50;
      const starved = await run(await thread(Math.ceil((cpuMs * 4) / alone.cpu)), loop, cpuMs);
      expect(starved.done).toEqual({ type: "done", ok: true, value: "true" });
    });
  });

  it("counts wall time, and says so, where the thread cannot read its CPU clock", async () => {
    const { done, cpu } = await run(await thread(4, true), "for (;;) {}", 400);
    expect(done.type === "done" && !done.ok && done.message).toBe("the script ran past 400 ms of CPU time (wall time: no CPU clock of the thread here)");
    expect(cpu).toBeLessThan(400);
  });

  describe("in a code-mode tool's own thread", () => {
    const code = codeMode({ tools: [], limits: { cpuMs: 300 } });
    afterAll(() => code.close());

    it("ends a busy loop with cpu_time near cpuMs of CPU time", async () => {
      await code.warm();
      const before = process.cpuUsage();
      const result = await runToolCalls([{ id: "c", name: "run_script", arguments: { script: "for (;;) {}" } }], [code.tool], { toolTimeout: 30_000 });
      const used = process.cpuUsage(before);
      expect(result.messages[0]?.content).toContain("script ended (cpu_time)");
      expect((used.user + used.system) / 1_000).toBeLessThan(300 + 700);
    });
  });
});
