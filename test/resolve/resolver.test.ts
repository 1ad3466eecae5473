import { TestScheduler } from "rxjs/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  askUser,
  composeRecipeReport,
  defineTool,
  EngineError,
  error,
  mergeResolvers,
  ok,
  runToolCalls,
  streamToolCalls,
  toolResolver,
  type ToolError,
  type RecipePlan,
  type CallReport,
  type ResolveAnswer,
  type ToolCall,
  type ToolResolver,
} from "../../src/index.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";
import { anyArgs, call, eventsOf, noClientRequests } from "../support/helpers.js";

const searchDef = defineTool({ name: "search", description: "Search", schema: z.object({ q: z.string() }) });
const fetchDef = defineTool({ name: "fetch", description: "Fetch a page", schema: z.object({ url: z.string() }) });
const researchDef = defineTool({ name: "research", description: "Research a topic", schema: z.object({ topic: z.string() }) });

/** A resolver answering from a table, recording every call it sees. */
function tableResolver(
  answers: Record<string, (call: ToolCall, ctx: HandlerContext) => ResolveAnswer | Promise<ResolveAnswer>>,
  recipes: Record<string, (args: Record<string, unknown>) => RecipePlan> = {},
) {
  const seen: ToolCall[] = [];
  const resolver: ToolResolver = {
    availableTools: () => [searchDef, fetchDef, researchDef],
    resolve: (c, ctx) => {
      seen.push(c);
      const answer = answers[c.name];
      return answer === undefined ? { error: `Unknown tool: ${c.name}` } : answer(c, ctx);
    },
    dispatchRecipe: (name) => recipes[name],
  };
  return { resolver, seen };
}

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

describe("dispatch recipes", () => {
  const answers = {
    search: (c: ToolCall) => ({ ok: `hits for ${String(c.arguments.q)}` }),
    fetch: (c: ToolCall) => (String(c.arguments.url).includes("bad") ? { error: "fetch failed" } : { ok: `page ${String(c.arguments.url)}` }),
  };

  it("runs serial steps in order, each able to read the latest content of earlier tools, then parallel ones", async () => {
    const order: string[] = [];
    const { resolver, seen } = tableResolver(
      {
        search: (c) => {
          order.push(`search:${String(c.arguments.q)}`);
          return answers.search(c);
        },
        fetch: async (c) => {
          order.push(`fetch:${String(c.arguments.url)}`);
          return answers.fetch(c);
        },
      },
      {
        research: (args) => ({
          serial: [
            { tool: "search", label: "first search", arguments: { q: args.topic } },
            { tool: "search", arguments: (ctx) => ({ q: `more ${ctx.search}` }) },
          ],
          parallel: [
            { tool: "fetch", label: "page A", arguments: (ctx) => ({ url: `a?${ctx.search}` }) },
            { tool: "fetch", label: "page B", arguments: { url: "b" } },
          ],
        }),
      },
    );
    const { messages } = await runToolCalls([call("c1", "research", { topic: "rx" })], resolver);
    expect(order.slice(0, 2)).toEqual(["search:rx", "search:more hits for rx"]);
    expect(seen.map((c) => c.id)).toEqual(["c1/serial/0", "c1/serial/1", "c1/parallel/0", "c1/parallel/1"]);
    expect(messages[0]?.content).toBe(
      [
        "## Sequential Results",
        "### Step 1: first search\nhits for rx",
        "### Step 2: search\nhits for more hits for rx",
        "## Additional Results",
        "### page A\npage a?hits for more hits for rx",
        "### page B\npage b",
      ].join("\n\n"),
    );
    expect(messages[0]?.isError).toBe(false);
  });

  it("records a failing step and still runs the later ones", async () => {
    const { resolver } = tableResolver(answers, {
      research: () => ({
        serial: [
          { tool: "fetch", label: "broken", arguments: { url: "bad" } },
          { tool: "search", arguments: { q: "after" } },
        ],
        parallel: [{ tool: "translate", label: "missing tool", arguments: {} }],
      }),
    });
    const { messages } = await runToolCalls([call("c1", "research", { topic: "t" })], resolver);
    expect(messages[0]?.content).toBe(
      [
        "## Sequential Results",
        "### Step 1: search\nhits for after",
        "## Errors\n\n- **broken**: fetch failed\n- **missing tool**: Unknown tool: translate",
      ].join("\n\n"),
    );
  });

  it("hands compose the results and uses its text", async () => {
    const compose = vi.fn(
      (r: { serialResults: unknown[]; parallelResults: unknown[]; errors: unknown[] }) =>
        `${r.serialResults.length}/${r.parallelResults.length}/${r.errors.length}`,
    );
    const { resolver } = tableResolver(answers, {
      research: () => ({ serial: [{ tool: "search", arguments: { q: "a" } }], parallel: [{ tool: "fetch", arguments: { url: "bad" } }], compose }),
    });
    const { messages } = await runToolCalls([call("c1", "research", { topic: "t" })], resolver);
    expect(messages[0]?.content).toBe("1/0/1");
    expect(compose).toHaveBeenCalledWith({
      serialResults: [{ label: "search", tool: "search", content: "hits for a" }],
      parallelResults: [],
      errors: [{ label: "fetch", tool: "fetch", error: "fetch failed" }],
    });
  });

  it("answers 'No results produced.' for an empty plan", async () => {
    const { resolver } = tableResolver(answers, { research: () => ({}) });
    expect((await runToolCalls([call("c1", "research", { topic: "t" })], resolver)).messages[0]?.content).toBe("No results produced.");
  });

  describe("when the recipe itself is wrong", () => {
    const cases: [string, (args: Record<string, unknown>) => RecipePlan, RegExp][] = [
      [
        "it throws",
        () => {
          throw new Error("no plan today");
        },
        /recipe for tool research failed: no plan today/,
      ],
      ["the plan is not an object", () => "plan" as never, /recipe for tool research failed: the plan must be an object/],
      ["serial is not an array", () => ({ serial: {} }) as never, /plan\.serial must be an array/],
      ["a step has no tool", () => ({ parallel: [{ arguments: {} }] }) as never, /plan\.parallel\[0\]\.tool must be a non-empty string/],
      ["a step's arguments are missing", () => ({ serial: [{ tool: "search" }] }) as never, /plan\.serial\[0\]\.arguments must be an object or a function/],
      [
        "compose throws",
        () => ({
          compose: () => {
            throw new Error("bad template");
          },
        }),
        /compose threw: bad template/,
      ],
      ["compose returns a number", () => ({ compose: () => 42 as never }), /compose returned 42 instead of a string/],
    ];
    it.each(cases)("fails the call with an error saying why, routed by the policy: %s", async (_, recipe, message) => {
      const { resolver, seen } = tableResolver(answers, { research: recipe });
      const policy = vi.fn((_c: ToolCall, _e: unknown) => "halt" as const);
      const { messages, halt } = await runToolCalls([call("c1", "research", { topic: "t" })], resolver, { onToolError: policy });
      expect(messages[0]?.isError).toBe(true);
      expect(JSON.parse(messages[0]?.content ?? "").error).toMatch(message);
      expect(policy).toHaveBeenCalledTimes(1);
      expect(halt).toEqual({ haltedReason: "tool_error", haltToolCallId: "c1" });
      expect(seen).toEqual([]);
    });

    it("a step whose arguments function throws is recorded as that step's error", async () => {
      const { resolver } = tableResolver(answers, {
        research: () => ({
          serial: [
            {
              tool: "search",
              arguments: () => {
                throw new Error("no query");
              },
            },
          ],
        }),
      });
      const { messages } = await runToolCalls([call("c1", "research", { topic: "t" })], resolver);
      expect(messages[0]?.content).toBe("## Errors\n\n- **search**: arguments of step failed: no query");
    });

    it("a thrown string is recorded as it reads, not quoted, and without stack frames", async () => {
      const { resolver } = tableResolver(answers, {
        research: () => ({
          serial: [
            {
              tool: "search",
              arguments: () => {
                throw "no query given\n    at step (/srv/app/recipes.js:3:9)";
              },
            },
          ],
        }),
      });
      const { messages } = await runToolCalls([call("c1", "research", { topic: "t" })], resolver);
      expect(messages[0]?.content).toBe("## Errors\n\n- **search**: arguments of step failed: no query given");
    });
  });

  it("bounds parallel steps by maxConcurrency", async () => {
    let running = 0;
    let peak = 0;
    const { resolver } = tableResolver(
      {
        fetch: async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          return { ok: "p" };
        },
      },
      { research: () => ({ parallel: Array.from({ length: 7 }, (_, i) => ({ tool: "fetch", label: `p${i}`, arguments: { url: `${i}` } })) }) },
    );
    await runToolCalls([call("c1", "research", { topic: "t" })], resolver, { maxConcurrency: 3 });
    expect(peak).toBe(3);
  });

  it("runs under the parent's deadline: the deadline aborts running sub-steps and starts no more", () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    const signals: AbortSignal[] = [];
    const { resolver, seen } = tableResolver(
      {
        fetch: (_c, ctx) => {
          signals.push(ctx.signal);
          return new Promise<ResolveAnswer>(() => {});
        },
      },
      {
        research: () => ({
          serial: [
            { tool: "fetch", arguments: { url: "1" } },
            { tool: "fetch", arguments: { url: "2" } },
          ],
        }),
      },
    );
    const completed: unknown[] = [];
    scheduler.run(() => {
      streamToolCalls([call("c1", "research", { topic: "t" })], resolver, { toolTimeout: 30, scheduler }).subscribe((e) => {
        if (e.type === "tool_execution_completed") completed.push([scheduler.now(), e.result]);
      });
    });
    expect(completed).toEqual([[30, { type: "error", reason: expect.objectContaining({ reason: "timeout" }) }]]);
    expect(seen.map((c) => c.id)).toEqual(["c1/serial/0"]);
    expect(signals[0]?.aborted).toBe(true);
  });

  it("reports every sub-step on the onCallReport side channel, the ToolEvent union untouched", async () => {
    const steps: CallReport[] = [];
    const { resolver } = tableResolver(answers, {
      research: () => ({ serial: [{ tool: "search", arguments: { q: "a" } }], parallel: [{ tool: "fetch", label: "bad page", arguments: { url: "bad" } }] }),
    });
    const events = await eventsOf([call("c1", "research", { topic: "t" })], resolver as never, { onCallReport: (e) => steps.push(e) });
    expect(events.map((e) => e.type)).toEqual(["tool_execution_started", "tool_execution_completed", "tool_result_encoded"]);
    const base = { index: 0, toolCallId: "c1", toolName: "research" };
    expect(steps).toEqual([
      { type: "recipe_step_started", ...base, phase: "serial", step: 0, label: "search", tool: "search", stepCallId: "c1/serial/0", arguments: { q: "a" } },
      { type: "recipe_step_succeeded", ...base, phase: "serial", step: 0, label: "search", tool: "search", stepCallId: "c1/serial/0", content: "hits for a" },
      {
        type: "recipe_step_started",
        ...base,
        phase: "parallel",
        step: 0,
        label: "bad page",
        tool: "fetch",
        stepCallId: "c1/parallel/0",
        arguments: { url: "bad" },
      },
      { type: "recipe_step_failed", ...base, phase: "parallel", step: 0, label: "bad page", tool: "fetch", stepCallId: "c1/parallel/0", error: "fetch failed" },
    ]);
  });
});

describe("composeRecipeReport", () => {
  it("gives 'No results produced.' when there is nothing", () => {
    expect(composeRecipeReport({ serialResults: [], parallelResults: [], errors: [] })).toBe("No results produced.");
  });

  it("joins the sections it has with blank lines", () => {
    expect(
      composeRecipeReport({
        serialResults: [],
        parallelResults: [{ label: "A", tool: "t", content: "a" }],
        errors: [{ label: "B", tool: "t", error: "b failed" }],
      }),
    ).toBe("## Additional Results\n\n### A\na\n\n## Errors\n\n- **B**: b failed");
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
  const ctx = (c: ToolCall): HandlerContext => ({
    context: {},
    sessionId: undefined,
    requestId: undefined,
    engine: undefined,
    toolCall: c,
    signal: new AbortController().signal,
    progress: () => {},
    log: () => {},
    ...noClientRequests,
  });

  it("resolves calls through the tools' handlers, values encoded, errors as text", async () => {
    const resolver = toolResolver([weather, asker]);
    const r = (c: ToolCall) => resolver.resolve(c, ctx(c));
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
    expect(
      await merged.resolve(c, {
        context: {},
        sessionId: undefined,
        requestId: undefined,
        engine: undefined,
        toolCall: c,
        signal: new AbortController().signal,
        progress: () => {},
        log: () => {},
        ...noClientRequests,
      }),
    ).toEqual({
      error: "Unknown tool: z",
    });
  });
});
