/**
 * Behaviour users rely on that no earlier test could see break: each was a mutant that survived
 * the whole suite (issue 9, "Tests that cannot see their bug").
 */
import { firstValueFrom, toArray, type Subscribable } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  defineTool,
  error,
  jsonEncoder,
  ok,
  runToolCalls,
  streamToolCalls,
  type ToolCall,
  type ToolResolver,
  type ToolResultEncoder,
} from "../../../src/index.js";
import { anyArgs, call, deferred, eventsOf, flushMicrotasks } from "../../support/helpers.js";

const text = (content: string | undefined) => (JSON.parse(content ?? "") as { error: string }).error;

describe("a recipe whose parent call timed out", () => {
  it("starts no more serial steps once the current one settles", async () => {
    const first = deferred<{ ok: string }>();
    const resolved: string[] = [];
    const resolver: ToolResolver = {
      availableTools: () => [
        defineTool({ name: "research", description: "", schema: anyArgs }),
        defineTool({ name: "step", description: "", schema: anyArgs }),
      ],
      resolve: (c) => {
        resolved.push(c.id);
        return first.promise;
      },
      dispatchRecipe: (name) =>
        name === "research"
          ? () => ({
              serial: [
                { tool: "step", arguments: {} },
                { tool: "step", arguments: {} },
              ],
            })
          : undefined,
    };
    const { messages } = await runToolCalls([call("c1", "research")], resolver, { toolTimeout: 20 });
    expect(text(messages[0]?.content)).toMatch(/timeout/);
    first.resolve({ ok: "late" });
    await flushMicrotasks(20);
    expect(resolved).toEqual(["c1/serial/0"]);
  });
});

describe("a cancelled call", () => {
  it("whose handler rejects afterwards reaches neither the policy nor the encoder (unsubscribe)", async () => {
    const pending = deferred<never>();
    const policy = vi.fn(() => "halt" as const);
    const encodeError = vi.fn((r: unknown) => jsonEncoder.encodeError(r));
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => pending.promise });
    const subscription = streamToolCalls([call("c1", "t")], [tool], {
      onToolError: policy,
      toolResultEncoder: { encode: jsonEncoder.encode, encodeError },
    }).subscribe();
    subscription.unsubscribe();
    pending.reject(new Error("late"));
    await flushMicrotasks();
    expect(policy).not.toHaveBeenCalled();
    expect(encodeError).not.toHaveBeenCalled();
  });

  it("whose handler rejects after opts.signal aborts reaches neither the policy nor the encoder", async () => {
    const pending = deferred<never>();
    const policy = vi.fn(() => "halt" as const);
    const controller = new AbortController();
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => pending.promise });
    const done = runToolCalls([call("c1", "t")], [tool], { onToolError: policy, signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error("stop"));
    expect(await done).toEqual(new Error("stop"));
    pending.reject(new Error("late"));
    await flushMicrotasks();
    expect(policy).not.toHaveBeenCalled();
  });

  it("cancelled during async argument validation never runs its handler", async () => {
    const check = deferred<boolean>();
    const handler = vi.fn(() => ok(1));
    const tool = defineTool({ name: "t", description: "", schema: z.object({ a: z.string().refine(() => check.promise) }), handler });
    const events: string[] = [];
    const subscription = streamToolCalls([call("c1", "t", { a: "x" })], [tool]).subscribe((e) => events.push(e.type));
    subscription.unsubscribe();
    check.resolve(true);
    await flushMicrotasks(20);
    expect(handler).not.toHaveBeenCalled();
    expect(events).toEqual(["tool_execution_started"]);
  });
});

describe("argument validation that fails itself", () => {
  it("a refinement that throws is handler_exit, not a crash of the batch", async () => {
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({
        a: z.string().refine(() => {
          throw new Error("refine bug");
        }),
      }),
      handler: () => ok(1),
    });
    const { messages } = await runToolCalls([call("c1", "t", { a: "x" })], [tool]);
    expect(text(messages[0]?.content)).toBe("tool error (t): handler_exit: refine bug");
  });

  it("an async refinement that rejects is handler_exit", async () => {
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ a: z.string().refine(async () => Promise.reject(new Error("lookup down"))) }),
      handler: () => ok(1),
    });
    const { messages } = await runToolCalls([call("c1", "t", { a: "x" })], [tool]);
    expect(text(messages[0]?.content)).toBe("tool error (t): handler_exit: lookup down");
  });

  it("whitespace-only rawArguments means no arguments text, not invalid JSON", async () => {
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ok("ran") });
    const { messages } = await runToolCalls([{ id: "c1", name: "t", arguments: {}, rawArguments: " \n " }], [tool]);
    expect(messages[0]?.content).toBe("ran");
  });
});

describe("error texts", () => {
  it("a timeout carries metadata.toolTimeout and says how long it waited", async () => {
    const tool = defineTool({ name: "slow", description: "", schema: anyArgs, handler: () => new Promise<never>(() => {}) });
    const events = await eventsOf([call("c1", "slow")], [tool], { toolTimeout: 15 });
    expect(events[1]).toMatchObject({ result: { type: "error", reason: { reason: "timeout", metadata: { toolTimeout: 15 } } } });
    expect(events[2]).toMatchObject({ content: '{"error":"timeout: tool slow timed out after 15 ms"}' });
  });

  it.each([
    ["undefined", undefined, "undefined"],
    ["a symbol", Symbol("s"), "Symbol(s)"],
    ["a function", function lookup() {}, "a function (lookup)"],
    ["a bigint", 10n, "10n"],
  ])("encodeError of %s says what it was", (_, reason, expected) => {
    expect(jsonEncoder.encodeError(reason)).toBe(JSON.stringify({ error: expected }));
  });

  it.each([
    [undefined, "Cannot encode undefined as JSON"],
    [() => 1, "Cannot encode function as JSON"],
    [Symbol("s"), "Cannot encode symbol as JSON"],
  ])("encode of %s throws a TypeError saying what it got", (value, message) => {
    expect(() => jsonEncoder.encode(value)).toThrow(new TypeError(message));
  });

  it("encodeError of a cycle renders it, marking the cycle", () => {
    const cyclic: Record<string, unknown> = { code: 7 };
    cyclic.self = cyclic;
    expect(jsonEncoder.encodeError(cyclic)).toBe(JSON.stringify({ error: '{"code":7,"self":"[Circular]"}' }));
  });

  it("a custom encodeError returning a non-string falls back to jsonEncoder's text", async () => {
    const encoder: ToolResultEncoder = { encode: jsonEncoder.encode, encodeError: () => 42 as unknown as string };
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => error("no") });
    const { messages } = await runToolCalls([call("c1", "t")], [tool], { toolResultEncoder: encoder });
    expect(messages[0]).toMatchObject({ content: '{"error":"no"}', isError: true });
  });

  it.each([
    ["a number", 3, 'onToolError returned 3 for tool t; expected { continue: value } or "halt"'],
    ["a promise", Promise.resolve("halt"), "onToolError returned a promise for tool t; the policy must answer synchronously"],
  ])("a policy answering %s halts with an invalid_return saying so", async (_, answer, message) => {
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => error("no") });
    const events = await eventsOf([call("c1", "t")], [tool], { onToolError: () => answer as never });
    expect(events[2]).toMatchObject({
      type: "tool_halt",
      reason: "tool_error",
      result: { reason: "invalid_return", message, metadata: { onToolErrorReturned: true }, cause: answer },
    });
  });
});

describe("schemas and signals", () => {
  it("an already aborted signal never subscribes an Observable input", async () => {
    const subscribe = vi.fn();
    const input: Subscribable<ToolCall> = { subscribe: subscribe as never };
    const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ok(1) });
    const failure = await firstValueFrom(streamToolCalls(input, [tool], { signal: AbortSignal.abort(new Error("gone")) }).pipe(toArray())).catch(
      (e: unknown) => e,
    );
    expect(failure).toEqual(new Error("gone"));
    expect(subscribe).not.toHaveBeenCalled();
  });

  it("the handler gets the schema's parsed output", async () => {
    const tool = defineTool({
      name: "t",
      description: "",
      schema: z.object({ n: z.string().transform((s) => s.length) }),
      handler: ({ n }) => ok(n),
    });
    expect((await runToolCalls([call("c1", "t", { n: "abcd" })], [tool])).messages[0]?.content).toBe("4");
  });
});
