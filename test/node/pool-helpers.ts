import { setTimeout as sleep } from "node:timers/promises";
import { afterEach } from "vitest";
import { z } from "zod";
import type { CallReport, ToolCall } from "../../src/index.js";
import { workerPool, type WorkerPool, type WorkerPoolOptions } from "../../src/node/index.js";

/** The handlers' module, as a pool's threads import it. */
export const fixture = new URL("./fixtures/handlers.mjs", import.meta.url);
export const anyArgs = z.object({}).loose();

const open: WorkerPool[] = [];

/** A pool closed after the test, whatever happens in it. */
export function testPool(options: WorkerPoolOptions = {}): WorkerPool {
  const pool = workerPool({ size: 2, spares: 1, grace: 100, ...options });
  open.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((pool) => pool.close()));
});

/** A tool of `pool` running the fixture's `exportName`. */
export function fixtureTool(pool: WorkerPool, exportName: string, name = exportName) {
  return pool.tool({ name, description: "", schema: anyArgs, module: fixture, export: exportName });
}

export function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { id, name, arguments: args };
}

/** Wait until `check` holds, polling: for what a thread does on its own time (dying, being replaced). */
export async function until(check: () => boolean, within = 10_000): Promise<void> {
  const end = performance.now() + within;
  while (!check()) {
    if (performance.now() > end) throw new Error("the condition did not hold in time");
    await sleep(10);
  }
}

/** A report listener and what it heard. */
export function reportsLog(): { reports: CallReport[]; onCallReport: (report: CallReport) => void } {
  const reports: CallReport[] = [];
  return { reports, onCallReport: (report) => reports.push(report) };
}
