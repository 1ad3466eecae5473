import { z } from "zod";
import { defineTool, type RecipePlan, type ResolveAnswer, type ToolCall, type ToolResolver } from "../../src/index.js";
import type { HandlerContext } from "../../src/tool/handler-context.js";

// What the resolver tests (resolver, recipes, recipe-errors) share: three tool definitions, a
// resolver answering from a table, and the answers of the recipe tests.

export const searchDef = defineTool({ name: "search", description: "Search", schema: z.object({ q: z.string() }) });
export const fetchDef = defineTool({ name: "fetch", description: "Fetch a page", schema: z.object({ url: z.string() }) });
export const researchDef = defineTool({ name: "research", description: "Research a topic", schema: z.object({ topic: z.string() }) });

/** A resolver answering from a table, recording every call it sees. */
export function tableResolver(
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

/** The recipe tests' answers: a search hits, a fetch of a URL containing "bad" fails. */
export const recipeAnswers = {
  search: (c: ToolCall) => ({ ok: `hits for ${String(c.arguments.q)}` }),
  fetch: (c: ToolCall) => (String(c.arguments.url).includes("bad") ? { error: "fetch failed" } : { ok: `page ${String(c.arguments.url)}` }),
};
