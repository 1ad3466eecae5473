import { describe, expect, it, vi } from "vitest";
import { runToolCalls, type RecipePlan, type ToolCall } from "../../src/index.js";
import { call } from "../support/helpers.js";
import { recipeAnswers, tableResolver } from "./resolver-fixtures.js";

describe("dispatch recipes", () => {
  const answers = recipeAnswers;

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
});
