/**
 * A user's schemas come from the user's own zod, which need not be the copy toolrx resolves
 * (a monorepo, a bundled dependency, a second version in the tree). `zod-copy` is a second,
 * separately installed zod v4: everything must work with it as with our own.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import * as zCopy from "zod-copy";
import { defineTool, InvalidArgumentsError, ok, runToolCalls, toolJsonSchema } from "../../src/index.js";
import { call } from "../support/helpers.js";

function bookingTool() {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: "book",
    description: "Book seats",
    schema: zCopy.object({ seats: zCopy.number().int().min(1), cabin: zCopy.enum(["economy", "business"]).default("economy") }),
    handler: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ seats: number; cabin: "economy" | "business" }>();
      seen.push(args);
      return ok(args);
    },
  });
  return { tool, seen };
}

describe("schemas from another copy of zod", () => {
  it("really is another copy", () => {
    expect(zCopy.ZodObject).not.toBe(z.ZodObject);
    expect(zCopy.safeParse).not.toBe(z.safeParse);
  });

  it("gives the provider its JSON Schema", () => {
    expect(toolJsonSchema(bookingTool().tool)).toEqual({
      type: "object",
      properties: {
        seats: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        cabin: { type: "string", enum: ["economy", "business"], default: "economy" },
      },
      required: ["seats"],
    });
  });

  it("hands the handler the schema's output, defaults applied", async () => {
    const { tool, seen } = bookingTool();
    const { messages } = await runToolCalls([call("c1", "book", { seats: 2 })], [tool]);
    expect(seen).toEqual([{ seats: 2, cabin: "economy" }]);
    expect(messages[0]).toMatchObject({ content: '{"seats":2,"cabin":"economy"}', isError: false });
  });

  it("keeps invalid arguments from the handler and names the field", async () => {
    const { tool, seen } = bookingTool();
    const { messages } = await runToolCalls([call("c1", "book", { seats: 0, cabin: "first" })], [tool]);
    expect(seen).toEqual([]);
    expect(messages[0]?.isError).toBe(true);
    expect(messages[0]?.content).toContain("seats");
    expect(messages[0]?.content).toContain("cabin");
  });

  it("runs async refinements", async () => {
    const taken = new Set(["12A"]);
    const seat = defineTool({
      name: "seat",
      description: "",
      schema: zCopy.object({ seat: zCopy.string().refine(async (s) => !taken.has(s), "seat is taken") }),
      handler: ({ seat }) => ok(`booked ${seat}`),
    });
    const errors: unknown[] = [];
    const { messages } = await runToolCalls([call("c1", "seat", { seat: "12A" }), call("c2", "seat", { seat: "14C" })], [seat], {
      onToolError: (_call, e) => {
        errors.push(e);
        return "halt";
      },
    });
    expect(messages.map((m) => m.content)).toEqual([expect.stringContaining("seat is taken"), "booked 14C"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(InvalidArgumentsError);
    expect((errors[0] as InvalidArgumentsError).issues).toEqual([{ code: "custom", path: ["seat"], message: "seat is taken" }]);
  });
});
