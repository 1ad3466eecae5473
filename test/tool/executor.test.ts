import { describe, expect, it } from "vitest";
import { askUser, defaultExecutor, defineTool, error, halt, ok, runToolCalls, ToolError, type HandlerResult, type ToolExecutor } from "../../src/index.js";
import { anyArgs, call, contextFor } from "../support/helpers.js";

function toolWith(handler?: (args: Record<string, unknown>) => unknown) {
  return defineTool({ name: "t", description: "", schema: anyArgs, handler: handler as never });
}

async function run(handler?: (args: Record<string, unknown>) => unknown): Promise<HandlerResult> {
  const c = call("c1", "t", { x: 1 });
  return defaultExecutor.execute(toolWith(handler), c.arguments, contextFor(c));
}

describe("defaultExecutor", () => {
  describe("when the handler returns a legal shape", () => {
    const legal: HandlerResult[] = [ok(1), error("own failure"), askUser("q"), { type: "ask_user", question: "q" }, halt("r", 1)];
    it.each(legal)("returns %j unchanged, sync or async", async (result) => {
      expect(await run(() => result)).toBe(result);
      expect(await run(async () => result)).toBe(result);
    });

    it("passes the handler's own error through, even a ToolError it made", async () => {
      const own = error(new ToolError("timeout"));
      expect(await run(() => own)).toBe(own);
    });
  });

  it("returns synchronously for a synchronous handler", () => {
    const c = call("c1", "t");
    const result = defaultExecutor.execute(
      toolWith(() => ok(1)),
      {},
      contextFor(c),
    );
    expect(result).toEqual(ok(1));
  });

  it("calls the handler with the arguments and the context", async () => {
    const c = call("c1", "t", { x: 1 });
    const ctx = contextFor(c);
    let seen: unknown[] = [];
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: (args, context) => {
        seen = [args, context];
        return ok(1);
      },
    });
    await defaultExecutor.execute(tool, c.arguments, ctx);
    expect(seen[0]).toEqual({ x: 1 });
    expect(seen[1]).toBe(ctx);
  });

  describe("when the handler throws or rejects", () => {
    it("returns handler_raised with the Error as cause", async () => {
      const boom = new Error("boom");
      for (const handler of [
        () => {
          throw boom;
        },
        async () => {
          throw boom;
        },
      ]) {
        const result = await run(handler);
        expect(result).toEqual({ type: "error", reason: expect.any(ToolError) });
        const e = (result as { reason: ToolError }).reason;
        expect(e).toMatchObject({ reason: "handler_raised", toolName: "t", toolCallId: "c1", cause: boom });
      }
    });

    it.each([
      ["a string", "boom"],
      ["undefined", undefined],
      ["a number", 7],
    ])("keeps a thrown %s as { thrown }", async (_, thrown) => {
      const result = (await run(() => {
        throw thrown;
      })) as { reason: ToolError };
      expect(result.reason.reason).toBe("handler_raised");
      expect(result.reason.cause).toEqual({ thrown });
      const rejected = (await run(() => Promise.reject(thrown))) as { reason: ToolError };
      expect(rejected.reason.cause).toEqual({ thrown });
    });
  });

  describe("when the handler returns an illegal shape", () => {
    it.each([[42], [undefined], ["ok"], [{ type: "ok" }], [{ type: "ask_user", question: 1 }], [{ type: "halt", reason: 2, result: 1 }]])(
      "returns invalid_return with %j as cause",
      async (value) => {
        for (const handler of [() => value, async () => value]) {
          const result = (await run(handler)) as { type: string; reason: ToolError };
          expect(result.type).toBe("error");
          expect(result.reason).toMatchObject({ reason: "invalid_return", toolName: "t", cause: value });
        }
      },
    );
  });

  it("returns not_found for a tool without a handler", async () => {
    const result = (await run(undefined)) as { type: string; reason: ToolError };
    expect(result.type).toBe("error");
    expect(result.reason).toMatchObject({ reason: "not_found", toolName: "t", toolCallId: "c1" });
  });
});

describe("defaultExecutor called by a custom executor, with a hostile promise", () => {
  it("answers handler_raised when even resolving the promise throws (its constructor getter throws)", () => {
    const hostile = Promise.resolve(ok(1));
    Object.defineProperty(hostile, "constructor", {
      get() {
        throw new Error("no constructor for you");
      },
    });
    const c = call("c1", "t");
    // Not awaited: the executor must answer, not throw, before anything is awaited.
    const result = defaultExecutor.execute(
      toolWith(() => hostile),
      {},
      contextFor(c),
    ) as HandlerResult;
    expect(result).toMatchObject({ type: "error", reason: { reason: "handler_raised", toolName: "t", toolCallId: "c1" } });
    expect((result as { reason: ToolError }).reason.cause).toMatchObject({ message: "no constructor for you" });
  });
});

describe("a handler's `this`", () => {
  it("is the tool, whether the runner calls the handler or defaultExecutor does", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "t",
      description: "",
      schema: anyArgs,
      handler: function (this: unknown) {
        seen.push(this);
        return ok("ran");
      } as never,
    });
    await runToolCalls([call("c1", "t")], [tool]);
    let delegated = 0;
    const toolExecutor: ToolExecutor = {
      execute: (t, args, ctx) => {
        delegated++;
        return defaultExecutor.execute(t, args, ctx);
      },
    };
    await runToolCalls([call("c2", "t")], [tool], { toolExecutor });
    expect(delegated).toBe(1);
    expect(seen).toEqual([tool, tool]);
  });
});
