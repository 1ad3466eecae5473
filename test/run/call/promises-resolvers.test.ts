/**
 * Behaviour users rely on that no earlier test could see break: each was a mutant that survived
 * the whole suite (issue 9, "Tests that cannot see their bug").
 */
import { Observable } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import {
  defineTool,
  mergeResolvers,
  ok,
  runToolCalls,
  streamToolCalls,
  toolResolver,
  type CallReport,
  type ToolCall,
  type ToolResolver,
} from "../../../src/index.js";
import { anyArgs, call, deferred, flushMicrotasks } from "../../support/helpers.js";

const text = (content: string | undefined) => (JSON.parse(content ?? "") as { error: string }).error;

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
