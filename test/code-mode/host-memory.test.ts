import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** The host's live heap, after a full collection: what it keeps, not what it has yet to collect. */
const liveHeap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe("codeMode host memory", () => {
  const CALLS = 2_000;
  const samples: number[] = [];
  const store = defineTool({
    name: "store",
    description: "Keeps nothing",
    schema: z.object({ note: z.string() }),
    handler: ({ note }) => {
      if (++calls % 100 === 0) samples.push(liveHeap());
      return ok(note.length);
    },
  });
  let calls = 0;
  const code = codeMode({ tools: [store], limits: { maxCalls: CALLS, cpuMs: 60_000 } });
  afterAll(() => code.close());

  it("stays bounded while one script sends thousands of large calls: each call's arguments are dropped once answered", async () => {
    // 2,000 calls of 64 KiB each, 8 at a time: 125 MiB the host would keep if it held the arguments until the script ended.
    const script = `const note = "y".repeat(65536); let n = 0;
      for (let i = 0; i < ${CALLS / 8}; i++) for (const r of await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(() => tools.store({ note })))) n += r;
      return n;`;
    const call = { id: "m", name: code.tool.name, arguments: { script } };
    samples.push(liveHeap());
    const m = (await runToolCalls([call], [code.tool], { toolTimeout: 110_000 })).messages[0];
    expect(m?.content).toBe(String(CALLS * 65_536));
    const growth = Math.max(...samples) - (samples[0] as number);
    // The bound: a few calls in flight, plus what the runner keeps per call; far below 125 MiB.
    expect(growth).toBeLessThan(32 * 1024 * 1024);
  }, 120_000);
});
