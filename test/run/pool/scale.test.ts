import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, type ToolCall } from "../../../src/index.js";

describe("scale", () => {
  it("runs 100,000 calls, synchronous ones queued behind slow ones, without overflowing the stack", async () => {
    const fast = defineTool({ name: "fast", description: "", schema: z.object({ i: z.number() }), handler: ({ i }) => ok(i) });
    const slow = defineTool({
      name: "slow",
      description: "",
      schema: z.object({ i: z.number() }),
      handler: ({ i }) => new Promise((resolve) => setTimeout(() => resolve(ok(i)), 5)),
    });
    const calls: ToolCall[] = Array.from({ length: 100_000 }, (_, i) => ({ id: `c${i}`, name: i % 5_000 === 0 ? "slow" : "fast", arguments: { i } }));
    const { messages } = await runToolCalls(calls, [fast, slow], { maxConcurrency: 4 });
    expect(messages).toHaveLength(100_000);
    expect(messages[99_999]).toEqual({ role: "tool", toolCallId: "c99999", name: "fast", content: "99999", isError: false });
    expect(messages.every((m, i) => m.toolCallId === `c${i}` && m.content === String(i))).toBe(true);
  });
});
