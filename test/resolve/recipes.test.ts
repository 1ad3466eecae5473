import { TestScheduler } from "rxjs/testing";
import { describe, expect, it, vi } from "vitest";
import { composeRecipeReport, runToolCalls, streamToolCalls, type CallReport, type ResolveAnswer } from "../../src/index.js";
import { call, eventsOf } from "../support/helpers.js";
import { recipeAnswers, tableResolver } from "./resolver-fixtures.js";

describe("dispatch recipes", () => {
  const answers = recipeAnswers;

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
