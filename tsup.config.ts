import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "providers/index": "src/providers/index.ts", "otel/index": "src/otel/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  treeshake: true,
  // Shared chunks for CommonJS too: each subpath then requires the core instead of carrying its
  // own copy, so `instanceof ToolError` holds across `toolrx` and `toolrx/otel`.
  splitting: true,
});
