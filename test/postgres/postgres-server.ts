import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../bullmq/redis.js";

/**
 * A Postgres server for the server tests (the chaos property, the journal-store contract): Debian's `postgresql` binaries, a fresh cluster in a
 * temporary directory (trust auth, no fsync: nothing outlives the test), on a free 127.0.0.1 port,
 * stopped by its pid. Postgres refuses to run as root, so as root it runs as the `postgres` user
 * the package creates. Without the binaries the tests skip with one line saying why, except
 * under `CI=true`, where they must run.
 */
export interface TestPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

const binDir = existsSync("/usr/lib/postgresql")
  ? readdirSync("/usr/lib/postgresql")
      .map((v) => join("/usr/lib/postgresql", v, "bin"))
      .find((dir) => existsSync(join(dir, "initdb")))
  : undefined;

/** Why the Postgres server tests cannot run here, or `undefined` when they can. */
export const postgresUnavailable: string | undefined =
  binDir !== undefined ? undefined : "Postgres server tests skipped: no Debian postgresql binaries in /usr/lib/postgresql (apt-get install postgresql)";

if (postgresUnavailable !== undefined) {
  if (process.env.CI === "true") throw new Error(`${postgresUnavailable}; under CI=true they must run`);
  console.warn(postgresUnavailable);
}

const asRoot = process.getuid?.() === 0;
/** As root, the `postgres` user's ids (spawned with them directly, so a kill reaches the server itself). */
const ids = (): { uid?: number; gid?: number } => {
  if (!asRoot) return {};
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
};

export async function startPostgres(): Promise<TestPostgres> {
  if (binDir === undefined) throw new Error(postgresUnavailable);
  const dir = mkdtempSync(join(tmpdir(), "toolrx-pg-"));
  chmodSync(dir, 0o700);
  const user = ids();
  if (user.uid !== undefined && user.gid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  const init = spawnSync(join(binDir, "initdb"), ["-D", data, "--auth=trust", "--username=postgres", "--no-sync", "--encoding=UTF8"], {
    encoding: "utf8",
    cwd: dir,
    ...user,
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const args = ["-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", dir, "-c", "fsync=off", "-c", "max_connections=100"];
  const child: ChildProcess = spawn(join(binDir, "postgres"), args, { stdio: ["ignore", "ignore", "pipe"], cwd: dir, ...user });
  let log = "";
  child.stderr?.on("data", (d) => (log += d));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import("pg");
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${log}`);
    const client = new pg.Client({ connectionString: url });
    const up = await client.connect().then(
      () => true,
      () => false,
    );
    await client.end().catch(() => {});
    if (up) break;
    if (Date.now() > until) throw new Error(`postgres did not accept connections in 30 s: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      // SIGQUIT: Postgres's immediate shutdown, which also ends its backends; SIGKILL if it hangs.
      const exited = new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)));
      child.kill("SIGQUIT");
      const hung = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(hung);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
