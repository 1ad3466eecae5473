import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../../src/index.js";
import { codeMode } from "../../src/code-mode/index.js";
import { runScript } from "./helpers.js";

describe("codeMode limits.maxInFlight", () => {
  const started: string[] = [];
  let running = 0;
  let most = 0;
  // Each call stays running until a later macrotask, so the script's calls overlap as much as the limit allows.
  const slot = defineTool({
    name: "slot",
    description: "",
    schema: z.object({ n: z.number() }),
    handler: async ({ n }, ctx) => {
      started.push(ctx.toolCall.id);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return ok(n * 10);
    },
  });
  const code = codeMode({ tools: [slot], limits: { maxInFlight: 2, maxCalls: 6 } });
  afterAll(() => code.close());

  it("queues the calls past the limit, starts them in the script's order as slots free, and the script goes on", async () => {
    const script = "return await Promise.all([0, 1, 2, 3, 4, 5].map((n) => tools.slot({ n })));";
    const m = (await runScript(code.tool, script, "q")).messages[0];
    expect(m).toMatchObject({ isError: false, content: "[0,10,20,30,40,50]" });
    expect(most).toBe(2);
    expect(started).toEqual(["q.0", "q.1", "q.2", "q.3", "q.4", "q.5"]);
  });

  it("still ends a script past `maxCalls`, queued calls counted", async () => {
    const m = (await runScript(code.tool, "return await Promise.all([0, 1, 2, 3, 4, 5, 6].map((n) => tools.slot({ n })));")).messages[0];
    expect(m?.isError).toBe(true);
    expect(m?.content).toContain("script ended (too_many_calls)");
  });
});
