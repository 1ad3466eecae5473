import { existsSync, mkdtempSync, rmSync } from "node:fs";
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
 * development dependency, never reached from the package) into a temporary `.mjs` file.
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

async function bundleSource(): Promise<URL> {
  const esbuild = "esbuild"; // a name in a variable: the package build leaves this import alone
  const { build } = (await import(esbuild)) as { build(options: Record<string, unknown>): Promise<unknown> };
  const dir = mkdtempSync(join(tmpdir(), "toolrx-worker-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, "worker.mjs");
  await build({
    entryPoints: [fileURLToPath(new URL("./worker.ts", here))],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
  });
  return pathToFileURL(outfile);
}
