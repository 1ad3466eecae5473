import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/**
 * A Redis for the tests: `REDIS_URL` when set, else a `redis-server` of our own on a free
 * 127.0.0.1 port with no persistence, stopped by its pid. Without either the Redis tests skip
 * with one line saying why, except under `CI=true`, where they must run.
 */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stop our server (no-op for `REDIS_URL`). */
  stop(): Promise<void>;
  /** Start it again on the same port, empty (only for our own server). */
  restart(): Promise<void>;
  /** Whether `stop`/`restart` are ours to call (false for `REDIS_URL`). */
  readonly owned: boolean;
}

const hasBinary = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;

/** Why the Redis tests cannot run here, or `undefined` when they can. */
export const redisUnavailable: string | undefined =
  process.env.REDIS_URL !== undefined || hasBinary
    ? undefined
    : "Redis tests skipped: no `redis-server` on PATH and no REDIS_URL (install it with `apt-get install redis-server`, or set REDIS_URL=redis://host:port)";

if (redisUnavailable !== undefined) {
  if (process.env.CI === "true") throw new Error(`${redisUnavailable}; under CI=true they must run`);
  console.warn(redisUnavailable);
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const { createConnection } = await import("node:net");
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: "127.0.0.1" }, () => {
        socket.write("PING\r\n");
      });
      socket.once("data", (d) => {
        socket.destroy();
        resolve(d.toString().startsWith("+PONG"));
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error("redis-server did not answer PING within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function spawnRedis(port: number): ChildProcess {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
    { stdio: "ignore" },
  );
  child.unref();
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid, "SIGKILL");
  await exited;
}

/** Start (or reuse, with `REDIS_URL`) a Redis for one test file. */
export async function startRedis(): Promise<TestRedis> {
  const given = process.env.REDIS_URL;
  if (given !== undefined) {
    const port = Number(new URL(given).port || 6379);
    return { url: given, port, owned: false, stop: async () => {}, restart: async () => {} };
  }
  const port = await freePort();
  let child = spawnRedis(port);
  await waitForPort(port, child);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    owned: true,
    async stop() {
      await stopChild(child);
    },
    async restart() {
      await stopChild(child);
      child = spawnRedis(port);
      await waitForPort(port, child);
    },
  };
}
