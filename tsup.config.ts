import { defineConfig, type Options } from "tsup";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

/**
 * `toolrx/providers` re-exports each provider's own entry instead of bundling it, so the
 * `openai` / `anthropic` namespace objects are built only in bundles that import them: with them
 * in a shared chunk, `import { parseToolCalls } from "toolrx/providers/openai"` would pull in
 * every openai function (and RxJS), as the namespace object keeps them all alive.
 */
const providerNamespacesExternal: Plugin = {
  name: "provider-namespaces-external",
  setup(build) {
    // The extension this format's entries get (".cjs" for CommonJS), so each format re-exports its own.
    const extension = build.initialOptions.outExtension?.[".js"] ?? ".js";
    build.onResolve({ filter: /^\.\/(openai|anthropic)\/index\.js$/ }, ({ path, importer }) =>
      /[\\/]src[\\/]providers[\\/]index\.ts$/.test(importer) ? { path: path.replace(/\.js$/, extension), external: true } : undefined,
    );
  },
};

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "providers/index": "src/providers/index.ts",
    // Flat per-provider entries: a bundler keeps only the functions imported from them, which it
    // cannot do through the `openai` / `anthropic` namespace objects of `toolrx/providers`.
    "providers/openai/index": "src/providers/openai/index.ts",
    "providers/anthropic/index": "src/providers/anthropic/index.ts",
    "otel/index": "src/otel/index.ts",
    "testing/index": "src/testing/index.ts",
    // Node-only (node:http), apart from the isomorphic testing/index.
    "testing/server/index": "src/testing/server/index.ts",
    "mcp/index": "src/mcp/index.ts",
    "bullmq/index": "src/bullmq/index.ts",
    // The journal and the ledger on Postgres: no driver imported (the user brings pg or PGlite).
    "postgres/index": "src/postgres/index.ts",
    "ai-sdk/index": "src/ai-sdk/index.ts",
    "ag-ui/index": "src/ag-ui/index.ts",
    // Node-only (worker_threads): nothing in the core imports it.
    "node/index": "src/node/index.ts",
    // Node-only (worker_threads, QuickJS): its sandbox thread's program travels as source text.
    "code-mode/index": "src/code-mode/index.ts",
    // What the Node-only subpaths resolve to in a browser or edge bundle (scripts/node-only-stubs.mjs).
    "node-only/index": "src/node-only/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  treeshake: true,
  // Shared chunks for CommonJS too: each subpath then requires the core instead of carrying its
  // own copy, so `instanceof ToolError` holds across `toolrx` and `toolrx/otel`.
  splitting: true,
  esbuildPlugins: [providerNamespacesExternal],
  onSuccess: async () => {
    await buildWorker();
    // @ts-expect-error: a plain .mjs script, no declarations
    const { writeNodeOnlyStubs } = await import("./scripts/node-only-stubs.mjs");
    await writeNodeOnlyStubs(process.cwd());
  },
});

/**
 * The pool's threads run node/worker, next to node/index (see src/node/worker-script.ts). It is
 * built apart, in one file: as an entry of the split build it imported the core's shared chunk,
 * and with it RxJS, zod and the JSON Schema validator, which every new thread then loaded and
 * compiled (hundreds of ms of CPU per thread, and tens more after it said it was ready, where
 * its own 20 kB take a few). A thread has its own module instances anyway: nothing is shared.
 */
async function buildWorker(): Promise<void> {
  const { build } = await import("esbuild");
  await Promise.all(
    (["esm", "cjs"] as const).map((format) =>
      build({
        entryPoints: { "node/worker": "src/node/worker.ts" },
        outdir: "dist",
        outExtension: { ".js": format === "esm" ? ".js" : ".cjs" },
        format,
        bundle: true,
        platform: "node",
        packages: "external",
        target: "es2022",
        sourcemap: true,
        logLevel: "error",
      }),
    ),
  );
}
