import { createHash } from "node:crypto";
import { existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// In the CommonJS build `import.meta` is empty and this module's own file is `__filename`
// (tsup's shim would give the shared chunk's file instead, which is not next to worker.js).
const here: string = (import.meta as { url?: string }).url ?? pathToFileURL(__filename).href;
let fromSource: Promise<URL> | undefined;

/**
 * Where the worker thread's script is. In the package it is `node/worker.js`, next to this module
 * or, when the bundler put this module in a chunk shared with `toolrx/bullmq`, under it.
 * Running from TypeScript source (this repository's tests and examples), Node 20 cannot start a
 * worker on a `.ts` file, so the worker's source is bundled once per process with esbuild (a
 * development dependency, never reached from the package) into `$TMPDIR/toolrx-worker-<hash>.mjs`.
 * The name is the bundle's content hash: every process of the same source shares one file, and
 * nothing is left per process, however it ends (a kill, a crash, a test runner's worker).
 */
export function workerScript(): URL | Promise<URL> {
  if (!here.endsWith(".ts")) {
    // This module is either the subpath's own file (dist/node/) or a chunk shared with another
    // subpath that uses it (dist/, beside node/): the worker is next to one or under the other.
    const beside = new URL("./worker.js", here);
    const under = new URL("./node/worker.js", here);
    return existsSync(fileURLToPath(beside)) ? beside : under;
  }
  const built = new URL("./worker.js", here);
  if (existsSync(fileURLToPath(built))) return built;
  fromSource ??= bundleSource();
  return fromSource;
}

/** A bundle of another source version not used for this long is removed by the next bundling. */
const STALE_MS = 24 * 60 * 60 * 1000;
const PREFIX = "toolrx-worker-";

async function bundleSource(): Promise<URL> {
  const esbuild = "esbuild"; // a name in a variable: the package build leaves this import alone
  const { build } = (await import(esbuild)) as { build(options: Record<string, unknown>): Promise<{ outputFiles: { contents: Uint8Array }[] }> };
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL("./worker.ts", here))],
    outfile: "worker.mjs",
    write: false,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
  });
  const code = (outputFiles[0] as { contents: Uint8Array }).contents;
  const dir = tmpdir();
  const file = join(dir, `${PREFIX}${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (existsSync(file)) {
    try {
      const now = new Date();
      utimesSync(file, now, now); // in use: not stale
    } catch {
      // Another user's file, which that user keeps fresh.
    }
  } else {
    // Written aside and renamed: a process starting a worker never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  removeStale(dir, file);
  return pathToFileURL(file);
}

/** Remove other bundles (and the per-process folders of earlier versions) nobody used for a day. */
function removeStale(dir: string, keep: string): void {
  const before = Date.now() - STALE_MS;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!name.startsWith(PREFIX) || path === keep) continue;
    try {
      if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone already, or another user's: not ours to insist on.
    }
  }
}
