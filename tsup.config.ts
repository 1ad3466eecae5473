import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "providers/index": "src/providers/index.ts", "mcp/index": "src/mcp/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  treeshake: true,
});
