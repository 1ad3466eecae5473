import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { defineTool, ok, runToolCalls, streamToolCalls, type HandlerResult, type RunResult, type Tool, type ToolEvent } from "../../src/index.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";
import type { Observable } from "rxjs";

test("handler arguments are zod's output type", () => {
  defineTool({
    name: "weather",
    description: "",
    schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c"), days: z.number().optional() }),
    handler: (args, ctx) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; unit: "c" | "f"; days?: number | undefined }>();
      expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
      return ok(args.city);
    },
  });
});

test("handler arguments from zod/mini schemas", () => {
  defineTool({
    name: "m",
    description: "",
    schema: zm.object({ n: zm.number() }),
    handler: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ n: number }>();
      return ok(args.n);
    },
  });
});

test("handler arguments from a JSON Schema literal, with or without `as const`", () => {
  defineTool({
    name: "double",
    description: "",
    schema: { type: "object", properties: { n: { type: "integer" }, label: { type: "string" } }, required: ["n"], additionalProperties: false },
    handler: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ n: number; label?: string }>();
      return ok(args.n * 2);
    },
  });
  const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false } as const;
  defineTool({
    name: "search",
    description: "",
    schema,
    handler: ({ q }) => {
      expectTypeOf(q).toEqualTypeOf<string>();
      return ok(q);
    },
  });
});

test("a wrong access is a type error", () => {
  defineTool({
    name: "weather",
    description: "",
    schema: z.object({ city: z.string() }),
    // @ts-expect-error: `town` is not an argument of this tool
    handler: (args) => ok(args.town),
  });
  defineTool({
    name: "weather",
    description: "",
    schema: z.object({ city: z.string() }),
    // @ts-expect-error: a handler must return a result shape, not a bare value
    handler: () => 42,
  });
});

test("handlers may be async and return any result shape", () => {
  const tool = defineTool({
    name: "t",
    description: "",
    schema: z.object({}),
    handler: async () => ({ type: "ask_user", question: "sure?" }) as const,
  });
  expectTypeOf(tool).toMatchTypeOf<Tool<Record<string, never>>>();
});

test("typed tools go into one list together", () => {
  const a = defineTool({ name: "a", description: "", schema: z.object({ x: z.string() }), handler: () => ok(1) });
  const b = defineTool({ name: "b", description: "", schema: { type: "object" } as const });
  expectTypeOf(runToolCalls([], [a, b])).toEqualTypeOf<Promise<RunResult>>();
  expectTypeOf(streamToolCalls([], [a, b])).toEqualTypeOf<Observable<ToolEvent>>();
});

test("the event union is closed and discriminated by type", () => {
  const describeEvent = (e: ToolEvent): string => {
    switch (e.type) {
      case "tool_execution_started":
        return JSON.stringify(e.arguments);
      case "tool_execution_completed":
        expectTypeOf(e.result).toEqualTypeOf<HandlerResult>();
        return e.result.type;
      case "tool_result_encoded":
        return e.content;
      case "ask_user_requested":
        return e.question;
      case "tool_halt":
        return e.reason;
      default: {
        const exhaustive: never = e;
        return exhaustive;
      }
    }
  };
  expectTypeOf(describeEvent).returns.toEqualTypeOf<string>();
});
