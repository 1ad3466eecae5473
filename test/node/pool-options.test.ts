import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isolatedTool, workerPool } from "../../src/node/index.js";
import { fixture } from "./pool-helpers.js";

describe("workerPool", () => {
  it.each([
    [{ size: 0 }, "Expected `size` to be a positive integer, got 0"],
    [{ spares: -1 }, "Expected `spares` to be a non-negative integer, got -1"],
    [{ grace: "1s" }, 'Expected `grace` to be a number of milliseconds from 0 to 2147483647, got "1s"'],
    [{ resourceLimits: 64 }, "Expected `resourceLimits` to be an object, got 64"],
    [
      { preload: ["./relative.mjs"] },
      'Expected `preload` to be a file URL or an absolute path (new URL("./handler.mjs", import.meta.url)), got "./relative.mjs"',
    ],
    [{ name: "" }, 'Expected `name` to be a non-empty string, got ""'],
    [{ ahead: 2 }, "Expected `ahead` to be 0 or 1, got 2"],
  ])("rejects %j with a TypeError naming the option", (options, message) => {
    expect(() => workerPool(options as never)).toThrow(new TypeError(message));
  });

  it("is a limit of size × (1 + ahead) for the runner: ahead 1 by default, 0 posts only to an idle thread", async () => {
    const pools = [workerPool({ size: 3 }), workerPool({ size: 3, ahead: 0 })];
    expect(pools.map((pool) => pool.concurrency.limit)).toEqual([6, 3]);
    await Promise.all(pools.map((pool) => pool.close()));
  });

  it("starts no thread until it is used", async () => {
    const pool = workerPool();
    expect(pool.stats().threads).toBe(0);
    await pool.close();
  });
});

describe("isolatedTool", () => {
  const base = { name: "t", description: "", schema: z.object({}) };

  it.each([
    [
      { module: "handlers.mjs" },
      'Expected `module` of tool "t" to be a file URL or an absolute path (new URL("./handler.mjs", import.meta.url)), got "handlers.mjs"',
    ],
    [{ module: fixture, export: "" }, 'Expected `export` of tool "t" to be a non-empty string, got string'],
    [{ module: fixture, context: "all" }, 'Expected `context` of tool "t" to be a function, got string'],
    [{ module: fixture, handler: () => null }, 'Expected no `handler` on isolated tool "t": name it with `module` and `export`'],
  ])("rejects %o with a TypeError naming the field", (extra, message) => {
    expect(() => isolatedTool({ ...base, ...extra } as never)).toThrow(new TypeError(message));
  });

  it("is a tool like any other: its JSON has no trace of the module", () => {
    const tool = isolatedTool({ ...base, module: fixture, export: "spin" });
    expect(JSON.parse(JSON.stringify(tool))).toEqual({ name: "t", description: "", schema: expect.any(Object), manual: false, metadata: {} });
  });
});
