/**
 * Behaviour users rely on that no earlier test could see break: each was a mutant that survived
 * the whole suite (issue 9, "Tests that cannot see their bug").
 */
import { Observable, firstValueFrom, toArray, type Subscribable } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  defineTool,
  error,
  jsonEncoder,
  mergeResolvers,
  ok,
  runToolCalls,
  streamToolCalls,
  toolResolver,
  type CallReport,
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

describe("resolvers and recipes", () => {
  const step = defineTool({ name: "step", description: "", schema: anyArgs, handler: (args) => ok(args) });
  const research = defineTool({ name: "research", description: "", schema: anyArgs });

  it("mergeResolvers over a resolver without dispatchRecipe resolves its calls directly", async () => {
    const plain: ToolResolver = { availableTools: () => [research], resolve: () => ({ ok: "direct" }) };
    const merged = mergeResolvers(plain, toolResolver([step]));
    expect(merged.dispatchRecipe?.("research")).toBeUndefined();
    expect((await runToolCalls([call("c1", "research")], merged)).messages[0]?.content).toBe("direct");
  });

  it("a recipe returning a promise of a plan runs the plan", async () => {
    const resolver = toolResolver([step, research], {
      recipes: { research: (async () => ({ serial: [{ tool: "step", arguments: { a: 1 } }] })) as never },
    });
    const { messages } = await runToolCalls([call("c1", "research")], resolver);
    expect(messages[0]?.content).toBe('## Sequential Results\n\n### Step 1: step\n{"a":1}');
  });

  it("a step whose arguments function returns a non-object is recorded as that step's error", async () => {
    const steps: CallReport[] = [];
    const resolver = toolResolver([step, research], {
      recipes: { research: () => ({ serial: [{ tool: "step", arguments: () => "nope" as never }] }) },
    });
    const { messages } = await runToolCalls([call("c1", "research")], resolver, { onCallReport: (e) => steps.push(e) });
    expect(messages[0]?.content).toBe('## Errors\n\n- **step**: arguments of step must be an object, got "nope"');
    expect(steps.map((e) => e.type)).toEqual(["recipe_step_failed"]);
  });

  it("a resolver throwing inside a step is that step's error; the other steps still run", async () => {
    let n = 0;
    const resolver: ToolResolver = {
      availableTools: () => [research, step],
      resolve: () => {
        if (n++ === 0) throw new Error("index offline");
        return { ok: "second" };
      },
      dispatchRecipe: (name) =>
        name === "research"
          ? () => ({
              serial: [
                { tool: "step", arguments: {} },
                { tool: "step", label: "again", arguments: {} },
              ],
            })
          : undefined,
    };
    const { messages } = await runToolCalls([call("c1", "research")], resolver);
    expect(messages[0]?.content).toBe("## Sequential Results\n\n### Step 1: again\nsecond\n\n## Errors\n\n- **step**: index offline");
  });

  it.each([
    ["a step that is not an object", { serial: ["step"] }, 'plan.serial[0] must be a step object, got "step"'],
    ["a step with an empty tool", { parallel: [{ tool: "", arguments: {} }] }, 'plan.parallel[0].tool must be a non-empty string, got ""'],
    ["a label that is not a string", { serial: [{ tool: "step", label: 7, arguments: {} }] }, "plan.serial[0].label must be a string, got 7"],
    ["compose that is not a function", { compose: "markdown" }, 'plan.compose must be a function, got "markdown"'],
  ])("a plan with %s fails the call saying so", async (_, plan, why) => {
    const resolver = toolResolver([step, research], { recipes: { research: () => plan as never } });
    const { messages } = await runToolCalls([call("c1", "research")], resolver);
    expect(text(messages[0]?.content)).toBe(`recipe for tool research failed: ${why}`);
  });

  it.each([
    ["null", null, "null"],
    ["{ ok: 5 }", { ok: 5 }, "an object"],
  ])("a step answered %s by its resolver is that step's error", async (_, answer, described) => {
    const resolver: ToolResolver = {
      availableTools: () => [research, step],
      resolve: () => answer as never,
      dispatchRecipe: (name) => (name === "research" ? () => ({ serial: [{ tool: "step", arguments: {} }] }) : undefined),
    };
    const { messages } = await runToolCalls([call("c1", "research")], resolver);
    expect(messages[0]?.content).toBe(`## Errors\n\n- **step**: resolver answered ${described}; expected { ok: string } or { error: string }`);
  });

  it("a recipe whose parent timed out during its parallel steps does not compose", async () => {
    const slow = deferred<{ ok: string }>();
    const compose = vi.fn(() => "report");
    const resolver: ToolResolver = {
      availableTools: () => [research, step],
      resolve: () => slow.promise,
      dispatchRecipe: (name) => (name === "research" ? () => ({ parallel: [{ tool: "step", arguments: {} }], compose }) : undefined),
    };
    const { messages } = await runToolCalls([call("c1", "research")], resolver, { toolTimeout: 20 });
    expect(text(messages[0]?.content)).toMatch(/timeout/);
    slow.resolve({ ok: "late" });
    await flushMicrotasks(20);
    expect(compose).not.toHaveBeenCalled();
  });

  it("tools from a resolver keep toJSON", () => {
    const resolver = toolResolver([step]);
    expect(JSON.parse(JSON.stringify(resolver.availableTools()[0]))).toMatchObject({ name: "step", schema: { type: "object" } });
  });

  it("a tool spread with { ...tool } keeps its handler", async () => {
    const copy = { ...step };
    expect((await runToolCalls([call("c1", "step", { a: 1 })], [copy])).messages[0]?.content).toBe('{"a":1}');
  });
});

describe("options of the wrong type", () => {
  const tool = defineTool({ name: "t", description: "", schema: anyArgs, handler: () => ok(1) });
  it.each([
    ["options not an object", "fast" as never, 'Expected options to be an object, got "fast"'],
    ["engine not an object", { engine: 5 as never }, "Expected `engine` to be an object, got 5"],
    ["onCallReport not a function", { onCallReport: "log" as never }, 'Expected `onCallReport` to be a function, got "log"'],
  ])("%s is a TypeError naming it", (_, options, message) => {
    expect(() => streamToolCalls([], [tool], options)).toThrow(new TypeError(message));
  });

  it("an Observable input is not read before subscribe", () => {
    const subscribe = vi.fn();
    streamToolCalls(new Observable<ToolCall>(subscribe), [tool]);
    expect(subscribe).not.toHaveBeenCalled();
  });
});
