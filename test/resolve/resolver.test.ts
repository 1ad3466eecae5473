import { TestScheduler } from "rxjs/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  askUser,
  defineTool,
  EngineError,
  error,
  mergeResolvers,
  ok,
  runToolCalls,
  streamToolCalls,
  toolResolver,
  type ToolError,
  type ResolveAnswer,
  type ToolCall,
  type ToolResolver,
} from "../../src/index.js";
import { anyArgs, call, contextFor, eventsOf } from "../support/helpers.js";
import { tableResolver } from "./resolver-fixtures.js";

describe("a ToolResolver in place of the tool list", () => {
  it("answers { ok } as content and { error } as a handler error through the policy", async () => {
    const { resolver } = tableResolver({ search: (c) => ({ ok: `results for ${String(c.arguments.q)}` }), fetch: () => ({ error: "404" }) });
    const policy = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
    const result = await runToolCalls([call("c1", "search", { q: "rxjs" }), call("c2", "fetch", { url: "x" })], resolver, { onToolError: policy });
    expect(result).toEqual({
      messages: [
        { role: "tool", toolCallId: "c1", name: "search", content: "results for rxjs", isError: false },
        { role: "tool", toolCallId: "c2", name: "fetch", content: '{"error":"404"}', isError: true },
      ],
      halt: { haltedReason: "tool_error", haltToolCallId: "c2" },
      halts: [{ haltedReason: "tool_error", haltToolCallId: "c2" }],
    });
    expect(policy).toHaveBeenCalledWith(call("c2", "fetch", { url: "x" }), "404");
  });

  it("sends every call through resolve, even for a listed tool with a handler", async () => {
    const own = vi.fn(() => ok("own handler"));
    const withHandler = defineTool({ name: "search", description: "", schema: anyArgs, handler: own });
    const resolver: ToolResolver = { availableTools: () => [withHandler], resolve: () => ({ ok: "resolved" }) };
    const { messages } = await runToolCalls([call("c1", "search")], resolver);
    expect(messages[0]?.content).toBe("resolved");
    expect(own).not.toHaveBeenCalled();
  });

  it("a throw or rejection in resolve is handler_raised", async () => {
    const { resolver } = tableResolver({
      search: () => {
        throw new Error("index offline");
      },
      fetch: () => Promise.reject(new Error("socket hang up")),
    });
    const events = await eventsOf([call("c1", "search", { q: "a" }), call("c2", "fetch", { url: "u" })], resolver as never);
    const completed = events.filter((e) => e.type === "tool_execution_completed") as { result: { reason: ToolError } }[];
    expect(completed.map((e) => [e.result.reason.reason, (e.result.reason.cause as Error).message])).toEqual([
      ["handler_raised", "index offline"],
      ["handler_raised", "socket hang up"],
    ]);
  });

  it("an answer of the wrong shape is invalid_return", async () => {
    const { resolver } = tableResolver({ search: () => ({ result: "x" }) as never });
    const events = await eventsOf([call("c1", "search", { q: "a" })], resolver as never);
    expect(events[1]).toMatchObject({ result: { type: "error", reason: { reason: "invalid_return", cause: { result: "x" } } } });
  });

  it("checks names against availableTools(): an unknown one fails the batch before anything resolves", async () => {
    const { resolver, seen } = tableResolver({ search: () => ({ ok: "x" }) });
    await expect(runToolCalls([call("c1", "search", { q: "a" }), call("c2", "translate")], resolver)).rejects.toBeInstanceOf(EngineError);
    expect(seen).toEqual([]);
  });

  it("validates arguments against the listed schema before resolving, and hands resolve the model's call", async () => {
    const { resolver, seen } = tableResolver({ search: () => ({ ok: "x" }) });
    const { messages } = await runToolCalls([call("c1", "search", { q: 1 }), call("c2", "search", { q: "ok" })], resolver);
    expect(messages[0]?.content).toMatch(/q: Invalid input: expected string/);
    expect(seen).toEqual([call("c2", "search", { q: "ok" })]);
  });

  it("gives resolve the call's context and signal, and bounds it by the deadline", () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    let signal: AbortSignal | undefined;
    const { resolver } = tableResolver({
      search: (_c, ctx) => {
        signal = ctx.signal;
        return new Promise<ResolveAnswer>(() => {});
      },
    });
    const types: [number, string][] = [];
    scheduler.run(() => {
      streamToolCalls([call("c1", "search", { q: "a" })], resolver, { toolTimeout: 40, scheduler }).subscribe((e) => types.push([scheduler.now(), e.type]));
    });
    expect(types).toEqual([
      [0, "tool_execution_started"],
      [40, "tool_execution_completed"],
      [40, "tool_result_encoded"],
    ]);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ reason: "timeout" });
  });
});

describe("toolResolver", () => {
  const weather = defineTool({
    name: "weather",
    description: "",
    schema: z.object({ city: z.string() }),
    handler: ({ city }) => (city === "Atlantis" ? error("no such city") : ok({ city, tempC: 21 })),
  });
  const asker = defineTool({ name: "ask", description: "", schema: anyArgs, handler: () => askUser("which?") });

  it("resolves calls through the tools' handlers, values encoded, errors as text", async () => {
    const resolver = toolResolver([weather, asker]);
    const r = (c: ToolCall) => resolver.resolve(c, contextFor(c));
    expect(resolver.availableTools()).toEqual([weather, asker]);
    expect(await r(call("1", "weather", { city: "Oslo" }))).toEqual({ ok: '{"city":"Oslo","tempC":21}' });
    expect(await r(call("2", "weather", { city: "Atlantis" }))).toEqual({ error: "no such city" });
    expect(await r(call("3", "weather", { city: 7 }))).toEqual({
      error: 'Invalid arguments for tool "weather": city: Invalid input: expected string, received number',
    });
    expect(await r(call("4", "nope"))).toEqual({ error: "Unknown tool: nope" });
    expect(await r(call("5", "ask"))).toEqual({ error: 'tool ask asked the user "which?", which a resolver cannot relay' });
  });

  it("carries recipes by tool name", async () => {
    const resolver = toolResolver([weather, defineTool({ name: "trip", description: "", schema: z.object({ cities: z.array(z.string()) }) })], {
      recipes: { trip: (args) => ({ parallel: (args.cities as string[]).map((city) => ({ tool: "weather", label: city, arguments: { city } })) }) },
    });
    const { messages } = await runToolCalls([call("c1", "trip", { cities: ["Oslo", "Atlantis"] })], resolver);
    expect(messages[0]?.content).toBe('## Additional Results\n\n### Oslo\n{"city":"Oslo","tempC":21}\n\n## Errors\n\n- **Atlantis**: no such city');
    expect(resolver.dispatchRecipe?.("weather")).toBeUndefined();
    expect(resolver.dispatchRecipe?.("constructor")).toBeUndefined();
  });
});

describe("mergeResolvers", () => {
  it("lists every resolver's tools, the first owner of a name wins, routes calls and recipes to their owner, and resolves recipe steps through the merge", async () => {
    const a = toolResolver([defineTool({ name: "x", description: "from a", schema: anyArgs, handler: () => ok("a") })]);
    const b: ToolResolver = {
      availableTools: () => [defineTool({ name: "x", description: "from b", schema: anyArgs }), defineTool({ name: "y", description: "", schema: anyArgs })],
      resolve: (c) => ({ ok: `b:${c.name}` }),
      dispatchRecipe: (name) => (name === "y" ? () => ({ serial: [{ tool: "x", arguments: {} }] }) : undefined),
    };
    const merged = mergeResolvers(a, b);
    expect(merged.availableTools().map((t) => [t.name, t.description])).toEqual([
      ["x", "from a"],
      ["y", ""],
    ]);
    const { messages } = await runToolCalls([call("c1", "x"), call("c2", "y")], merged);
    expect(messages.map((m) => m.content)).toEqual(["a", "## Sequential Results\n\n### Step 1: x\na"]);
    const c = call("c3", "z");
    expect(await merged.resolve(c, contextFor(c))).toEqual({
      error: "Unknown tool: z",
    });
  });
});
