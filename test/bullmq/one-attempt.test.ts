import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type HandlerContext, type Tool, type ToolResolver } from "../../src/index.js";
import { oneAttemptEach } from "../../src/bullmq/one-attempt.js";

/** A tool that fails its first two runs, retried three times by its own control. */
function flaky(runs: number[]): Tool {
  return defineTool({
    name: "flaky",
    description: "",
    schema: z.object({}),
    control: { idempotent: true, retry: { attempts: 3, delay: 1, jitter: false } },
    handler: (_args, ctx: HandlerContext) => {
      runs.push(1);
      if (runs.length < 3) throw new Error(`run ${runs.length}`);
      return ok(ctx.toolCall.id);
    },
  });
}

describe("oneAttemptEach (what a worker runs a job with)", () => {
  describe("when a tool declares its own retry", () => {
    it("runs the handler once: the producer's runner owns the retries", async () => {
      const runs: number[] = [];
      const [tool] = oneAttemptEach([flaky(runs)]) as Tool[];
      const { messages } = await runToolCalls([{ id: "c", name: "flaky", arguments: {} }], [tool as Tool]);
      expect(runs).toEqual([1]);
      expect(messages[0]?.isError).toBe(true);
      // The rest of the tool is as defined: its schema still checks arguments, its JSON is the same.
      expect(JSON.stringify(tool)).toEqual(JSON.stringify(flaky([])));
      expect(tool?.control).toMatchObject({ idempotent: true, retry: false });
    });

    it("keeps a tool without a retry as it is", () => {
      const plain = defineTool({ name: "plain", description: "", schema: z.object({}), handler: () => ok(1) });
      expect((oneAttemptEach([plain]) as Tool[])[0]).toBe(plain);
    });
  });

  describe("when the worker serves a resolver", () => {
    it("sees its listed tools without their retries, and keeps its own resolve", async () => {
      const runs: number[] = [];
      const listed = flaky([]);
      const resolver: ToolResolver = {
        availableTools: () => [listed],
        resolve: async () => {
          runs.push(1);
          throw new Error("down");
        },
      };
      const { messages } = await runToolCalls([{ id: "r", name: "flaky", arguments: {} }], oneAttemptEach(resolver));
      expect(runs).toEqual([1]);
      expect(messages[0]).toMatchObject({ isError: true, content: expect.stringContaining("down") });
    });
  });
});
