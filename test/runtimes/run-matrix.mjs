#!/usr/bin/env node
/**
 * The runtime matrix: the packed tarball installed as a user installs it, then one scenario
 * (test/runtimes/scenario.mjs: a batch with a deadline that fires, a stream, cancellation of one call
 * and of a whole batch, the agent loop halting for an approval with a secret and a ledger, the run
 * piped to the AI SDK's UI stream and to AG-UI, toolrx/providers against a local streaming server,
 * and the MCP client over Streamable HTTP) run on Node, Bun, Deno, workerd (through miniflare, with
 * and without `nodejs_compat`) and headless Chromium. Every runtime must give Node's digest exactly,
 * and each Node-only subpath must either load or fail with an error that names the runtime.
 *
 *   node test/runtimes/run-matrix.mjs            all runtimes (needs `npm run build`)
 *   node test/runtimes/run-matrix.mjs bun deno   only these (Node always runs: it is the reference;
 *                                               `deploy` names the deployment examples)
 *
 * Then each deployment example of examples/deploy (docs/deploy.md) runs on its runtime
 * (test/runtimes/run-deploy.mjs).
 *
 * Exits 1 naming each runtime that differs or fails. Chromium is CHROMIUM_PATH, Debian's
 * (/usr/bin/chromium), or the build inside the @sparticuz/chromium devDependency. Every runtime
 * comes from npm (bun, deno, miniflare's workerd), so nothing is skipped.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { runDeployExamples } from "./run-deploy.mjs";
import { startPeer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const wanted = process.argv.slice(2);
const runs = (name) => wanted.length === 0 || wanted.includes(name);

if (!existsSync(join(root, "dist", "index.js"))) {
  console.error("runtime matrix: no build in dist/; run `npm run build` first");
  process.exit(1);
}

/** The user's project: the tarball, the peers the scenario imports, and the OpenAI SDK it drives. */
function userProject() {
  const work = mkdtempSync(join(tmpdir(), "toolrx-runtimes-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--pack-destination", work, "--json", "--silent"], { cwd: root, encoding: "utf8" }));
  const version = (name) => manifest.devDependencies[name] ?? manifest.peerDependencies[name];
  const names = [
    "rxjs",
    "zod",
    "ai",
    "@ai-sdk/provider",
    "@ag-ui/core",
    "@modelcontextprotocol/client",
    "openai",
    "hono",
    "bullmq",
    "ioredis",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
  ];
  const dependencies = { toolrx: `file:./${packed[0].filename}`, ...Object.fromEntries(names.map((n) => [n, version(n)])) };
  writeFileSync(join(work, "package.json"), JSON.stringify({ name: "toolrx-runtimes", private: true, type: "module", dependencies }, null, 2));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: work, stdio: "inherit" });
  for (const file of ["scenario.mjs", "server-side.mjs", "handlers.mjs", "cli.mjs", "worker.mjs", "browser.mjs"]) cpSync(join(here, file), join(work, file));
  return work;
}

/** Runs `command` in `cwd`; resolves with its last line of output parsed as JSON. */
function runJson(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").at(-1) ?? "";
      try {
        if (code !== 0) throw new Error(`exited ${code ?? signal}`);
        resolve(JSON.parse(last));
      } catch (error) {
        reject(new Error(`${error.message}\n${err.slice(-4000)}${out.slice(-2000)}`));
      }
    });
  });
}

/** Bundles `entry` the way a user's bundler would for an edge worker or a page. */
async function bundle(work, entry, target, { nodeBuiltins = false } = {}) {
  const outfile = join(work, `${target}.bundle.js`);
  await build({
    entryPoints: [join(work, entry)],
    absWorkingDir: work,
    bundle: true,
    format: "esm",
    platform: target === "chromium" ? "browser" : "neutral",
    // wrangler's and Vite's conditions: a Node-only subpath resolves to its explanation here.
    conditions: target === "chromium" ? ["browser", "import", "module"] : ["workerd", "worker", "browser", "import", "module"],
    mainFields: ["browser", "module", "main"],
    target: "es2022",
    // With nodejs_compat, workerd has node:* modules, and wrangler leaves them to it.
    external: nodeBuiltins ? ["node:*"] : [],
    outfile,
    logLevel: "error",
  });
  return outfile;
}

async function onWorkerd(work, urls, compatibilityFlags) {
  const { Miniflare } = await import("miniflare");
  const nodeBuiltins = compatibilityFlags.includes("nodejs_compat");
  const script = readFileSync(await bundle(work, "worker.mjs", "workerd", { nodeBuiltins }), "utf8");
  const mf = new Miniflare({ modules: true, script, compatibilityDate: "2026-05-01", compatibilityFlags });
  try {
    const query = new URLSearchParams({ provider: urls.providerUrl, mcp: urls.mcpUrl });
    const response = await mf.dispatchFetch(`http://matrix.local/?${query}`);
    if (!response.ok) throw new Error(`worker answered ${response.status}: ${await response.text()}`);
    return await response.json();
  } finally {
    await mf.dispose();
  }
}

const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** CHROMIUM_PATH, else Debian's, else the build inside @sparticuz/chromium (as test/support/browser.ts chooses). */
async function chromiumLaunch() {
  const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (existsSync(path)) return { executablePath: path, args: flags };
  const { default: bundled } = await import("@sparticuz/chromium");
  return { executablePath: await bundled.executablePath(), args: [...bundled.args, ...flags] };
}

async function onChromium(work, peer) {
  const { chromium } = await import("playwright-core");
  peer.servePage(await bundle(work, "browser.mjs", "chromium"));
  const browser = await chromium.launch(await chromiumLaunch());
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(peer.origin);
    const result = await page
      .waitForFunction(() => window.matrixResult !== undefined, undefined, { timeout: 60_000 })
      .then(() => page.evaluate(() => window.matrixResult));
    if (errors.length > 0) throw new Error(errors.join("\n"));
    return result;
  } finally {
    await browser.close();
  }
}

/** The runtime's name an error from a Node-only subpath must carry there. */
const runtimeWords = { workerd: /Cloudflare Workers|workerd/, chromium: /browser/ };

const work = userProject();
const peer = await startPeer({ dist: join(root, "dist") });
const failures = [];
const rows = [];
try {
  const targets = [
    ["node", () => runJson(process.execPath, ["cli.mjs", peer.urls.providerUrl, peer.urls.mcpUrl], work)],
    ["bun", () => runJson(bin("bun"), ["cli.mjs", peer.urls.providerUrl, peer.urls.mcpUrl], work)],
    ["deno", () => runJson(bin("deno"), ["run", "--allow-all", "cli.mjs", peer.urls.providerUrl, peer.urls.mcpUrl], work)],
    ["workerd", () => onWorkerd(work, peer.urls, [])],
    ["workerd+nodejs_compat", () => onWorkerd(work, peer.urls, ["nodejs_compat"])],
    ["chromium", () => onChromium(work, peer)],
  ];
  let reference;
  for (const [name, run] of targets) {
    if (name !== "node" && !runs(name.split("+")[0])) continue;
    const started = performance.now();
    try {
      const { digest, nodeOnly } = await run();
      reference ??= digest;
      // The edge runtimes cannot run the server-side subpaths; they are held to the rest.
      if (!("serverSide" in digest)) digest.serverSide = reference.serverSide;
      const same = JSON.stringify(digest) === JSON.stringify(reference);
      if (!same) {
        for (const part of Object.keys(reference)) {
          if (JSON.stringify(digest[part]) !== JSON.stringify(reference[part])) {
            failures.push(`${name}: ${part} differs from Node\n  node: ${JSON.stringify(reference[part])}\n  ${name}: ${JSON.stringify(digest[part])}`);
          }
        }
      }
      const words = runtimeWords[name.split("+")[0]];
      for (const [subpath, outcome] of Object.entries(nodeOnly)) {
        if (outcome === "loads") continue;
        if (words === undefined || !words.test(outcome)) failures.push(`${name}: ${subpath} failed without naming the runtime: ${outcome}`);
      }
      rows.push([
        name,
        same ? "same as Node" : "DIFFERS",
        Object.values(nodeOnly).every((o) => o === "loads") ? "load" : "explained",
        performance.now() - started,
      ]);
    } catch (error) {
      failures.push(`${name}: ${error.message}`);
      rows.push([name, "FAILED", "-", performance.now() - started]);
    }
  }
  if (runs("deploy")) {
    const launchChromium = async () => (await import("playwright-core")).chromium.launch(await chromiumLaunch());
    for (const [name, failure, ms] of await runDeployExamples({ root, work, bin, peer, launchChromium })) {
      if (failure !== undefined) failures.push(`examples/deploy ${name}: ${failure}`);
      rows.push([`deploy: ${name}`, failure === undefined ? "streams the chat" : "FAILED", "-", ms]);
    }
  }
} finally {
  await peer.close();
  rmSync(work, { recursive: true, force: true });
}
console.log("\nruntime                           scenario        Node-only subpaths   time");
for (const [name, verdict, nodeOnly, ms] of rows) console.log(`${name.padEnd(34)}${verdict.padEnd(16)}${nodeOnly.padEnd(21)}${(ms / 1000).toFixed(1)} s`);
if (failures.length > 0) {
  console.error(`\nruntime matrix failed:\n${failures.map((f) => `- ${f}`).join("\n")}`);
  process.exit(1);
}
console.log("\nruntime matrix: every runtime gave Node's digest");
