import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { Redis } from "ioredis";
import { FIXTURES_OUT } from "./build-fixtures.js";

let queues = 0;
/** A queue name no other test (or earlier run against the same REDIS_URL) uses. */
export function freshQueue(label: string): string {
  return `t-${label}-${process.pid}-${Date.now().toString(36)}-${queues++}`;
}

/** A child process that printed `ready`, with the rest of its stdout collected. */
export interface Child {
  readonly process: ChildProcess;
  readonly lines: string[];
  /** Resolves with the exit code (or signal name). */
  readonly exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

function start(script: string, args: readonly string[]): Promise<Child> {
  // Bundled from source by the Redis suite's global setup (build-fixtures.ts).
  if (!existsSync(FIXTURES_OUT + script)) throw new Error(`${FIXTURES_OUT}${script} is missing: run test/bullmq through vitest, whose global setup bundles it`);
  const child = spawn(process.execPath, [FIXTURES_OUT + script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const lines: string[] = [];
  let buffer = "";
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line === "ready") onReady();
      else lines.push(line);
    }
  });
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "?")));
  const kill = (signal: NodeJS.Signals = "SIGKILL"): Promise<number | string> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, signal);
    return exited;
  };
  return Promise.race([
    ready.then(() => ({ process: child, lines, exited, kill })),
    exited.then((code) => Promise.reject(new Error(`${script} exited (${code}) before it was ready`))),
  ]);
}

/** A worker process on `queue`, named `name`. */
export function startWorker(url: string, queue: string, name: string, concurrency = 8, lockDuration = 1_000): Promise<Child> {
  return start("worker.mjs", [url, queue, name, String(concurrency), String(lockDuration)]);
}

/** A worker process set up as docs/distributed.md shows (an `echo` tool; it closes on SIGTERM and never calls `process.exit`). */
export function startDocsWorker(url: string, queue: string): Promise<Child> {
  return start("docs-worker.mjs", [url, queue]);
}

/** A producer process running `calls` with job ids derived from `key`. */
export function startProducer(url: string, queue: string, key: string, calls: unknown[], toolTimeout = 30_000): Promise<Child> {
  return start("producer.mjs", [url, queue, key, JSON.stringify(calls), String(toolTimeout)]);
}

/** A plain client for checking what the tools recorded. */
export function inspector(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** How often each call id's handler ran on queue `queue`. */
export async function runCounts(redis: Redis, queue: string): Promise<Record<string, number>> {
  const raw = await redis.hgetall(`${queue}:runs`);
  return Object.fromEntries(Object.entries(raw).map(([id, n]) => [id, Number(n)]));
}

/** Poll `check` every 20 ms until it is true or `ms` pass. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
