import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultExecutor, defineTool, runToolCalls, type HandlerContext, type Tool, type ToolCall, type ToolExecutor } from "../../../src/index.js";
import { argumentsInputOf } from "../../../src/internal.js";

/** An executor that records, per attempt, the arguments it got and what `argumentsInputOf` says they were parsed from. */
function recording(): { executor: ToolExecutor; seen: { args: unknown; input: unknown }[] } {
  const seen: { args: unknown; input: unknown }[] = [];
  const executor: ToolExecutor = {
    execute(tool, args, ctx) {
      seen.push({ args, input: argumentsInputOf(ctx) });
      return defaultExecutor.execute(tool, args, ctx);
    },
  };
  return { executor, seen };
}

// The schema's parse changes the value: what it took and what it gave are told apart.
const schema = z.object({ city: z.string().transform((s) => s.toUpperCase()) });
const call: ToolCall = { id: "c", name: "weather", arguments: { city: "oslo" } };

describe("argumentsInputOf (what an executor that sends a call elsewhere sends)", () => {
  it("is the model's arguments for a call that validated as it came", async () => {
    const { executor, seen } = recording();
    const tool = defineTool({ name: "weather", description: "", schema, handler: ({ city }) => ({ type: "ok", value: city }) }) as unknown as Tool;
    await runToolCalls([call], [tool], { toolExecutor: executor });
    expect(seen).toEqual([{ args: { city: "OSLO" }, input: { city: "oslo" } }]);
  });

  it("is a repair's arguments, on every attempt of a retried call", async () => {
    const { executor, seen } = recording();
    let runs = 0;
    const tool = defineTool({
      name: "weather",
      description: "",
      schema,
      control: { idempotent: true, retry: { attempts: 2, delay: 1, jitter: false, retryOn: () => true } },
      handler: ({ city }) => (++runs === 1 ? { type: "error", reason: new Error("busy") } : { type: "ok", value: city }),
    }) as unknown as Tool;
    const result = await runToolCalls([{ ...call, arguments: { town: "bergen" } }], [tool], {
      toolExecutor: executor,
      repairToolCall: () => ({ city: "bergen" }),
    });
    expect(result.messages[0]?.content).toBe("BERGEN");
    expect(seen).toEqual([
      { args: { city: "BERGEN" }, input: { city: "bergen" } },
      { args: { city: "BERGEN" }, input: { city: "bergen" } },
    ]);
  });

  it("is a `before` hook's rewrite, validated or not", async () => {
    for (const validateArguments of [true, false]) {
      const { executor, seen } = recording();
      const tool = defineTool({
        name: "weather",
        description: "",
        schema,
        hooks: [{ before: () => ({ arguments: { city: "rome" } }) }],
        handler: ({ city }) => ({ type: "ok", value: city }),
      }) as unknown as Tool;
      await runToolCalls([call], [tool], { toolExecutor: executor, validateArguments });
      expect(seen).toEqual([{ args: validateArguments ? { city: "ROME" } : { city: "rome" }, input: { city: "rome" } }]);
    }
  });

  it("is undefined for a context the runner did not make", () => {
    const ctx = { toolCall: call, signal: new AbortController().signal } as unknown as HandlerContext;
    expect(argumentsInputOf(ctx)).toBeUndefined();
  });
});
