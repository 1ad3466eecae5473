#!/usr/bin/env node
/**
 * Size budgets: what each import of the built package adds to a user's bundle, minified and
 * gzipped, against scripts/size-budgets.json. Every subpath in package.json's `exports` must
 * have a budget, so a new subpath cannot ship unmeasured. Peer dependencies stay external:
 * the user bundles them whether or not toolrx is there.
 *
 * A budget with `"runtime"` (`"workerd"`, `"browser"`) measures instead the whole edge bundle a
 * route on that runtime ships: peers and dependencies included (a Worker or a page has nothing
 * else to load them from), resolved with that runtime's export conditions.
 *
 *   node scripts/check-size.mjs           check (exit 1 when a budget is exceeded or missing)
 *   node scripts/check-size.mjs --json    the figures as JSON
 *
 * Needs a build (`npm run build`).
 */
import { build } from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const { budgets } = JSON.parse(readFileSync(join(root, "scripts", "size-budgets.json"), "utf8"));
const external = Object.keys({ ...manifest.peerDependencies, ...manifest.dependencies });

/** The ESM file a bundler picks for `specifier` (`toolrx` or `toolrx/sub`), from `exports`. */
function entryOf(specifier) {
  const subpath = specifier === manifest.name ? "." : `.${specifier.slice(manifest.name.length)}`;
  const target = manifest.exports[subpath]?.import?.default;
  if (typeof target !== "string") throw new Error(`${specifier}: no ESM entry in package.json exports`);
  const file = join(root, target);
  if (!existsSync(file)) throw new Error(`${specifier}: ${target} is missing; run \`npm run build\` first`);
  return file;
}

/** Minified and gzipped size of a bundle that imports `names` from `specifier` and keeps them. */
/** The export conditions wrangler and Vite resolve with, for the runtimes edge budgets name. */
const RUNTIME_CONDITIONS = { workerd: ["workerd", "worker", "browser"], browser: ["browser"] };

async function measure({ import: specifier, names, platform = "neutral", runtime }) {
  if (runtime !== undefined && !(runtime in RUNTIME_CONDITIONS)) throw new Error(`${specifier}: unknown runtime ${runtime}`);
  const from = JSON.stringify(entryOf(specifier));
  const contents = names === "*" ? `export * from ${from};` : `export { ${names.join(", ")} } from ${from};`;
  const result = await build({
    stdin: { contents, resolveDir: root, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    // "node" for a Node-only subpath: its built-in imports (worker_threads) stay external.
    platform,
    target: "es2022",
    ...(runtime === undefined ? { external } : { conditions: RUNTIME_CONDITIONS[runtime], mainFields: ["browser", "module", "main"] }),
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const label = ({ import: specifier, names, runtime }) =>
  `${names === "*" ? specifier : `{ ${names.join(", ")} } from ${specifier}`}${runtime === undefined ? "" : ` (${runtime} bundle)`}`;

const rows = [];
for (const budget of budgets) rows.push({ ...budget, ...(await measure(budget)) });
const unbudgeted = Object.keys(manifest.exports)
  .filter((subpath) => !subpath.endsWith(".json"))
  .map((subpath) => (subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`))
  .filter((specifier) => !budgets.some((b) => b.import === specifier && b.names === "*" && b.runtime === undefined));

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  for (const row of rows) {
    const verdict = row.gzipBytes <= row.maxGzipBytes ? "ok  " : "OVER";
    console.log(`${verdict} ${label(row).padEnd(58)} ${kb(row.gzipBytes).padStart(8)} min+gzip (budget ${kb(row.maxGzipBytes)}), ${kb(row.minBytes)} min`);
  }
  for (const specifier of unbudgeted) console.log(`MISSING ${specifier}: an export with no budget in scripts/size-budgets.json`);
}
const over = rows.filter((row) => row.gzipBytes > row.maxGzipBytes);
if (over.length > 0 || unbudgeted.length > 0) process.exit(1);
