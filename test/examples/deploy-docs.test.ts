import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// docs/deploy.md shows each deployment example whole; CI type-checks and runs the files, so the
// page must show exactly them.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const page = readFileSync(join(root, "docs/deploy.md"), "utf8");
const shown = [...page.matchAll(/^<!-- (examples\/deploy\/[\w.-]+) -->\n```typescript\n([\s\S]*?)^```$/gm)];

describe("docs/deploy.md", () => {
  it("shows every deployment example", () => {
    expect(shown.map(([, path]) => path).sort()).toEqual(
      ["browser.ts", "bun.ts", "chat.ts", "deno.ts", "hono-worker.ts", "next-route.ts"].map((f) => `examples/deploy/${f}`),
    );
  });

  it.each(shown.map(([, path, code]) => [path, code] as const))("shows %s as it is", (path, code) => {
    expect(code).toBe(readFileSync(join(root, path ?? ""), "utf8"));
  });
});
