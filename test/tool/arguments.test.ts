import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, InvalidArgumentsError, ok, runToolCalls, ToolError, type ToolCall } from "../../src/index.js";
import { call, eventsOf } from "../support/helpers.js";

function weatherTool() {
  const handler = vi.fn((args: { city: string; unit: "c" | "f" }) => ok(args));
  const tool = defineTool({
    name: "weather",
    description: "",
    schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }),
    handler,
  });
  return { tool, handler };
}

async function reasonOf(c: ToolCall, tool: Parameters<typeof eventsOf>[1][number]) {
  const events = await eventsOf([c], [tool]);
  return (events[1] as { result: { type: string; reason: unknown } }).result;
}

describe("argument validation", () => {
  describe("with a zod schema", () => {
    it("hands the handler the schema's output, defaults applied", async () => {
      const { tool, handler } = weatherTool();
      await runToolCalls([call("c1", "weather", { city: "Paris" })], [tool]);
      expect(handler.mock.calls[0]?.[0]).toEqual({ city: "Paris", unit: "c" });
    });

    it("never lets invalid arguments reach the handler; the error names the field and what was expected", async () => {
      const { tool, handler } = weatherTool();
      const result = await reasonOf(call("c1", "weather", { city: 42, unit: "k" }), tool);
      expect(handler).not.toHaveBeenCalled();
      expect(result.type).toBe("error");
      const reason = result.reason as InvalidArgumentsError;
      expect(reason).toBeInstanceOf(InvalidArgumentsError);
      expect(reason).toBeInstanceOf(Error);
      expect(reason).not.toBeInstanceOf(ToolError);
      expect(reason.issues).toEqual([
        { code: "invalid_type", path: ["city"], message: "Invalid input: expected string, received number" },
        { code: "invalid_value", path: ["unit"], message: 'Invalid option: expected one of "c"|"f"' },
      ]);
      expect(reason.message).toBe(
        'Invalid arguments for tool "weather": city: Invalid input: expected string, received number; unit: Invalid option: expected one of "c"|"f"',
      );
    });

    it("answers the model with that message, routed through onToolError", async () => {
      const { tool } = weatherTool();
      const policy = vi.fn((_c: unknown, _e: unknown) => "halt" as const);
      const { messages, halt } = await runToolCalls([call("c1", "weather", {})], [tool], { onToolError: policy });
      expect(policy.mock.calls[0]?.[1]).toBeInstanceOf(InvalidArgumentsError);
      expect(messages[0]).toEqual({
        role: "tool",
        toolCallId: "c1",
        name: "weather",
        content: '{"error":"Invalid arguments for tool \\"weather\\": city: Invalid input: expected string, received undefined"}',
        isError: true,
      });
      expect(halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c1" });
    });

    it("gives nested paths", async () => {
      const tool = defineTool({
        name: "ship",
        description: "",
        schema: z.object({ address: z.object({ lines: z.array(z.string()) }) }),
        handler: () => ok(1),
      });
      const reason = (await reasonOf(call("c1", "ship", { address: { lines: ["a", 2] } }), tool)).reason as InvalidArgumentsError;
      expect(reason.issues[0]?.path).toEqual(["address", "lines", 1]);
      expect(reason.message).toMatch(/address\.lines\.1: Invalid input: expected string/);
    });

    it("runs async refinements", async () => {
      const tool = defineTool({
        name: "user",
        description: "",
        schema: z.object({ name: z.string().refine(async (n) => n !== "taken", "name is taken") }),
        handler: ({ name }) => ok(name),
      });
      const { messages } = await runToolCalls([call("c1", "user", { name: "taken" }), call("c2", "user", { name: "free" })], [tool]);
      expect(messages.map((m) => m.content)).toEqual(['{"error":"Invalid arguments for tool \\"user\\": name: name is taken"}', "free"]);
    });
  });

  describe("with a JSON Schema", () => {
    const handler = vi.fn((args: { n: number }) => ok(args.n * 2));
    const tool = defineTool({
      name: "double",
      description: "",
      schema: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] } as const,
      handler,
    });

    it("validates against it", async () => {
      const { messages } = await runToolCalls(
        [call("c1", "double", { n: 2 }), call("c2", "double", { n: -1 }), call("c3", "double", { n: "2" }), call("c4", "double", {})],
        [tool],
      );
      expect(messages.map((m) => m.isError)).toEqual([false, true, true, true]);
      expect(messages[0]?.content).toBe("4");
      expect(messages[1]?.content).toMatch(/n: Too small: expected number to be >=0/);
      expect(messages[2]?.content).toMatch(/n: Invalid input: expected (integer|number), received string/);
      expect(handler).toHaveBeenCalledTimes(1);
    });
  });

  describe("when the provider's JSON could not be parsed", () => {
    it("answers that the arguments were not valid JSON, without running the handler", async () => {
      const { tool, handler } = weatherTool();
      const broken: ToolCall = { id: "c1", name: "weather", arguments: {}, rawArguments: '{"city": "Par' };
      const result = await reasonOf(broken, tool);
      expect(handler).not.toHaveBeenCalled();
      const reason = result.reason as InvalidArgumentsError;
      expect(reason).toBeInstanceOf(InvalidArgumentsError);
      expect(reason.issues).toEqual([{ code: "invalid_json", path: [], message: expect.stringMatching(/^the arguments were not valid JSON/) }]);
      expect(reason.message).toMatch(/Invalid arguments for tool "weather": the arguments were not valid JSON/);
    });

    it("answers the same when the JSON is valid but not an object", async () => {
      const { tool, handler } = weatherTool();
      for (const raw of ["[1, 2]", "null", '"Paris"']) {
        const reason = (await reasonOf({ id: "c1", name: "weather", arguments: {}, rawArguments: raw }, tool)).reason as InvalidArgumentsError;
        expect(reason.issues).toEqual([{ code: "invalid_json", path: [], message: "the arguments were not valid JSON: expected an object" }]);
      }
      expect(handler).not.toHaveBeenCalled();
    });

    it("accepts valid raw JSON, and empty raw text as no arguments", async () => {
      const { tool, handler } = weatherTool();
      await runToolCalls([{ id: "c1", name: "weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' }], [tool]);
      expect(handler).toHaveBeenCalledTimes(1);
      const free = defineTool({ name: "now", description: "", schema: z.object({}), handler: () => ok("t") });
      const { messages } = await runToolCalls([{ id: "c2", name: "now", arguments: {}, rawArguments: "" }], [free]);
      expect(messages[0]?.isError).toBe(false);
    });
  });

  describe("with validateArguments: false", () => {
    it("hands the arguments to the handler as they are", async () => {
      const { tool, handler } = weatherTool();
      await runToolCalls([call("c1", "weather", { city: 42 })], [tool], { validateArguments: false });
      expect(handler.mock.calls[0]?.[0]).toEqual({ city: 42 });
    });
  });

  describe("hostile keys", () => {
    it("cannot pollute prototypes through __proto__ or constructor", async () => {
      const seen: unknown[] = [];
      const json = defineTool({
        name: "j",
        description: "",
        schema: { type: "object", additionalProperties: true } as const,
        handler: (args) => {
          seen.push(args);
          return ok(args);
        },
      });
      const loose = defineTool({
        name: "z",
        description: "",
        schema: z.object({}).loose(),
        handler: (args) => {
          seen.push(args);
          return ok(args);
        },
      });
      const args = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as Record<string, unknown>;
      const raw = '{"__proto__": {"polluted": true}}';
      const { messages } = await runToolCalls(
        [call("c1", "j", args), call("c2", "z", args), { id: "c3", name: "j", arguments: args, rawArguments: raw }],
        [json, loose],
        { onToolError: "continue" },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
      expect(messages).toHaveLength(3);
      for (const value of seen) expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    });
  });
});

describe("model-visible content", () => {
  it("never carries a stack trace, whatever failed", async () => {
    const thrower = defineTool({
      name: "t",
      description: "",
      schema: z.object({ n: z.number() }),
      handler: ({ n }) => {
        if (n === 1) throw new Error("boom");
        if (n === 2) return Promise.reject(new TypeError("bad"));
        return ok(10n);
      },
    });
    const { messages } = await runToolCalls(
      [call("c1", "t", { n: 1 }), call("c2", "t", { n: 2 }), call("c3", "t", { n: 3 }), call("c4", "t", { n: "x" })],
      [thrower],
    );
    for (const m of messages) {
      expect(m.isError).toBe(true);
      expect(m.content).not.toMatch(/\n\s+at /);
      expect(m.content).not.toMatch(/\.(ts|js):\d+/);
    }
    expect(messages.map((m) => (JSON.parse(m.content) as { error: string }).error)).toEqual([
      "tool error (t): handler_raised: boom",
      "tool error (t): handler_raised: bad",
      "tool error (t): encoding_failed: Do not know how to serialize a BigInt",
      'Invalid arguments for tool "t": n: Invalid input: expected number, received string',
    ]);
  });
});
