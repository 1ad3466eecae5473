import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstValueFrom, toArray } from "rxjs";
import { runToolCalls, streamToolCalls, type ToolError, type ToolEvent } from "../../src/index.js";
import { withoutPaths } from "../../src/node/without-paths.js";
import { must } from "../support/must.js";
import { call, reportsLog, testPool } from "./pool-helpers.js";

const typed = new URL("./fixtures/typed-handlers.ts", import.meta.url);
const registerTsx = new URL("./fixtures/register-tsx.mjs", import.meta.url);
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const schema = z.object({ x: z.number(), y: z.number() });

describe("workerPool with TypeScript handlers", () => {
  describe("when tsx is registered in each thread (a preload)", () => {
    it("loads a .ts handler module and runs it as any other", async () => {
      const pool = testPool({ preload: [registerTsx] });
      const distance = pool.tool({ name: "distance", description: "", schema, module: typed, export: "distance" });
      const { reports, onCallReport } = reportsLog();
      const { messages } = await runToolCalls([call("a", "distance", { x: 3, y: 4 })], [distance], { toolExecutor: pool, onCallReport });
      expect(messages[0]?.content).toBe("5");
      expect(reports).toMatchObject([{ type: "progress", progress: 1, total: 1 }]);
    });
  });

  describe("when the module cannot load", () => {
    it("answers handler_raised in words without a file path; the host has the full error underneath", async () => {
      const pool = testPool();
      const distance = pool.tool({ name: "distance", description: "", schema, module: typed, export: "distance" });
      const missing = pool.tool({ name: "missing", description: "", schema, module: new URL("./fixtures/no-such-file.mjs", import.meta.url) });
      const calls = [call("a", "distance", { x: 3, y: 4 }), call("b", "missing", { x: 0, y: 0 })];
      const events: ToolEvent[] = await firstValueFrom(streamToolCalls(calls, [distance, missing], { toolExecutor: pool }).pipe(toArray()));
      // By call, not by arrival: under load the missing module's call may end first.
      const byIndex = (a: ToolEvent, b: ToolEvent) => a.index - b.index;
      const contents = events
        .filter((e) => e.type === "tool_result_encoded")
        .sort(byIndex)
        .map((e) => e.content);
      expect(contents[0]).toBe(
        '{"error":"tool error (distance): handler_raised: its handler\'s module failed to load: Unknown file extension \\".ts\\" for typed-handlers.ts"}',
      );
      expect(contents[1]).toContain("handler_raised: its handler's module failed to load: Cannot find module");
      for (const content of contents) {
        expect(content).not.toContain(fixtures);
        expect(content).not.toContain("file:");
      }
      const reasons = events
        .filter((e) => e.type === "tool_execution_completed")
        .sort(byIndex)
        .map((e) => (e.result as { reason: ToolError }).reason);
      expect(must(reasons[0]).reason).toBe("handler_raised");
      expect((must(reasons[0]).cause as Error).cause).toMatchObject({ name: "TypeError", message: expect.stringContaining(fileURLToPath(typed)) });
    });
  });
});

describe("withoutPaths", () => {
  const segment = fc.stringMatching(/^[\w.@-]{1,12}$/).filter((s) => s !== "." && s !== "..");
  const file = fc.stringMatching(/^\w{1,10}\.(ts|mjs|js)$/);

  it("cuts POSIX paths, file URLs and Windows paths down to their file names", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), file, fc.constantFrom("", ":3:7"), (dirs, name, at) => {
        const posix = `/${dirs.join("/")}/${name}`;
        for (const path of [posix, `file://${posix}`, `C:\\${dirs.join("\\")}\\${name}`]) {
          expect(withoutPaths(`Cannot find module '${path}${at}' imported from ${path}`)).toBe(`Cannot find module '${name}${at}' imported from ${name}`);
        }
      }),
    );
  });

  it("leaves words, relative paths and web URLs alone", () => {
    for (const text of ["and/or", "./fib.mjs", "src/node/x.ts", "see https://example.com/a/b", "1/2/3"]) {
      expect(withoutPaths(text)).toBe(text);
    }
  });
});
