/**
 * Writes the browser/edge stand-ins of the Node-only subpaths (dist/node-only/<name>.js and .cjs),
 * run by tsup after each build. A stand-in exports exactly the names of the real entry, read from
 * esbuild's metafile (so a user's `import { workerPool } from "toolrx/node"` still bundles), and
 * throws a NodeOnlyError naming the runtime when it is evaluated. See src/node-only/index.ts.
 */
import { build } from "esbuild";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Each Node-only subpath, its source entry, and what it needs from Node.js, for the message. */
export const NODE_ONLY = [
  { name: "node", subpath: "toolrx/node", entry: "src/node/index.ts", needs: "node:worker_threads" },
  { name: "bullmq", subpath: "toolrx/bullmq", entry: "src/bullmq/index.ts", needs: "BullMQ and ioredis, which need Node.js's net and crypto" },
  { name: "code-mode", subpath: "toolrx/code-mode", entry: "src/code-mode/index.ts", needs: "node:worker_threads for its QuickJS sandbox" },
];

/** The names `entry` exports, without running it. */
async function exportNames(root, entry) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "node",
    packages: "external",
    outdir: "out",
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs)
    .find((o) => o.entryPoint !== undefined)
    .exports.sort();
}

export async function writeNodeOnlyStubs(root) {
  for (const { name, subpath, entry, needs } of NODE_ONLY) {
    const names = await exportNames(root, entry);
    const error = `new NodeOnlyError(${JSON.stringify(subpath)}, ${JSON.stringify(needs)})`;
    const bindings = names.length === 0 ? "" : `\nexport const ${names.map((n) => `${n} = undefined`).join(", ")};\n`;
    const header = `// ${subpath} in a browser or edge bundle: written by scripts/node-only-stubs.mjs.\n`;
    writeFileSync(join(root, "dist", "node-only", `${name}.js`), `${header}import { NodeOnlyError } from "./index.js";\nthrow ${error};${bindings}`);
    writeFileSync(
      join(root, "dist", "node-only", `${name}.cjs`),
      `${header}"use strict";\nconst { NodeOnlyError } = require("./index.cjs");\nthrow ${error};\n`,
    );
  }
}
