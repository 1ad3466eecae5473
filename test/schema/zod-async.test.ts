/**
 * Async zod callbacks: each runs once per call, and one that rejects answers its call without
 * leaving a rejection unhandled (which would end a Node process by default).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, ok, runToolCalls, streamToolCalls } from "../../src/index.js";
import { call } from "../support/helpers.js";

const text = (content: string | undefined) => (JSON.parse(content ?? "") as { error: string }).error;

const unhandled = vi.fn();
beforeEach(() => {
  unhandled.mockClear();
  process.on("unhandledRejection", unhandled);
});
afterEach(() => {
  process.off("unhandledRejection", unhandled);
});

/** Long enough for an unhandled rejection to be reported. */
const settleRejections = () => new Promise((resolve) => setTimeout(resolve, 30));

describe("a zod callback declared async", () => {
  it("that rejects on the first call answers handler_exit, and nothing is left unhandled", async () => {
    const lookup = vi.fn(async () => {
      throw new Error("lookup down");
    });
    const tool = defineTool({ name: "t", description: "", schema: z.object({ a: z.string().refine(lookup) }), handler: () => ok(1) });
    const { messages } = await runToolCalls([call("c1", "t", { a: "x" })], [tool]);
    expect(text(messages[0]?.content)).toBe("tool error (t): handler_exit: lookup down");
    await settleRejections();
    expect(unhandled).not.toHaveBeenCalled();
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["refine", (f: (s: string) => Promise<boolean>) => z.object({ a: z.string().refine(f, "taken") })],
    ["refine on the object", (f: (s: string) => Promise<boolean>) => z.object({ a: z.string() }).refine(async (o) => f(o.a), "taken")],
    ["refine deep in a union", (f: (s: string) => Promise<boolean>) => z.object({ a: z.array(z.union([z.number(), z.string().refine(f, "taken")])) })],
    [
      "check",
      (f: (s: string) => Promise<boolean>) =>
        z.object({
          a: z.string().check(async (ctx) => {
            if (!(await f(ctx.value))) ctx.issues.push({ code: "custom", message: "taken", input: ctx.value });
          }),
        }),
    ],
  ])("runs once per call (%s)", async (_kind, make) => {
    const seen: string[] = [];
    const free = async (s: string) => {
      seen.push(s);
      return s !== "taken";
    };
    const args = (a: string) => ({ a: _kind === "refine deep in a union" ? [a] : a });
    const tool = defineTool({ name: "t", description: "", schema: make(free) as z.ZodType<Record<string, unknown>>, handler: () => ok("booked") });
    const { messages } = await runToolCalls([call("c1", "t", args("free")), call("c2", "t", args("taken"))], [tool]);
    expect(messages.map((m) => m.content)).toEqual(["booked", expect.stringContaining("taken")]);
    expect(messages[1]?.content).toContain("Invalid arguments for tool");
    expect(seen.sort()).toEqual(["free", "taken"]);
  });

  it("an async transform's output reaches the handler", async () => {
    const handler = vi.fn((args: { a: number }) => ok(args.a));
    const tool = defineTool({ name: "t", description: "", schema: z.object({ a: z.string().transform(async (s) => s.length) }), handler });
    const { messages } = await runToolCalls([call("c1", "t", { a: "four" })], [tool]);
    expect(messages[0]?.content).toBe("4");
    expect(handler.mock.calls[0]?.[0]).toEqual({ a: 4 });
  });
});

describe("a zod callback that returns a promise without being declared async", () => {
  it("is found out on the first call and runs once per call after it", async () => {
    let runs = 0;
    const lookup = (s: string) => {
      runs++;
      return Promise.resolve(s !== "taken");
    };
    const tool = defineTool({ name: "t", description: "", schema: z.object({ a: z.string().refine(lookup, "taken") }), handler: () => ok("booked") });
    const first = await runToolCalls([call("c1", "t", { a: "free" })], [tool]);
    expect(first.messages[0]?.content).toBe("booked");
    // zod's synchronous attempt called it once and refused the promise; the async parse called it again.
    expect(runs).toBe(2);
    runs = 0;
    const later = await runToolCalls([call("c2", "t", { a: "free" }), call("c3", "t", { a: "taken" })], [tool]);
    expect(later.messages.map((m) => m.content)).toEqual(["booked", expect.stringContaining("taken")]);
    expect(runs).toBe(2);
    await settleRejections();
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe("a schema with only synchronous callbacks", () => {
  it("stays synchronous: every event is out before subscribe returns", () => {
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({
        a: z
          .string()
          .refine((s) => s.length > 0)
          .transform((s) => s.toUpperCase()),
      }),
      handler: (args) => ok(args.a),
    });
    const events: string[] = [];
    streamToolCalls([call("c1", "t", { a: "x" })], [tool]).subscribe((event) => events.push(event.type === "tool_result_encoded" ? event.content : event.type));
    expect(events).toEqual(["tool_execution_started", "tool_execution_completed", "X"]);
  });
});
