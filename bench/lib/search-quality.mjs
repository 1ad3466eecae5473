/**
 * How well toolSearch finds what a model asks for, measured through the agent loop: for each
 * query a scripted model calls `search_tools`, and the answer the loop gives back is read. Hit@1,
 * hit@5 and MRR (over the five tools a search answers: a miss counts 0) for the queries close to
 * a tool's wording and for the paraphrases of tool-search-queries.mjs, on the catalog of
 * tool-search-catalog.mjs. Ranks, not times: the same on any machine.
 */
import { defineTool, ok, runAgent, toolSearch } from "../../dist/index.js";
import { scriptedModel } from "../../dist/testing/index.js";
import { catalog } from "../tool-search-catalog.mjs";
import { queries } from "../tool-search-queries.mjs";

/** The catalog as toolrx tools, each argument a string with its description. */
export function catalogTools() {
  return catalog.map(({ name, description, args }) =>
    defineTool({
      name,
      description,
      schema: {
        type: "object",
        properties: Object.fromEntries(Object.entries(args).map(([arg, text]) => [arg, { type: "string", description: text }])),
        additionalProperties: false,
      },
      handler: () => ok("done"),
    }),
  );
}

/** What `search_tools` answers for `query`, through one turn of `runAgent`. */
async function answerOf(found, query) {
  const model = scriptedModel([
    [
      { type: "tool_call", call: { id: "s1", name: "search_tools", arguments: { query } } },
      { type: "finish", reason: "tool_calls" },
    ],
    [{ type: "finish", reason: "stop" }],
  ]);
  const result = await runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages: [{ role: "user", content: query }] });
  const answer = result.messages.find((m) => m.role === "tool");
  if (answer === undefined || answer.isError) throw new Error(`search_tools failed for ${JSON.stringify(query)}: ${answer?.content}`);
  return JSON.parse(answer.content);
}

/**
 * Hit@1, hit@5 and MRR for both query sets with these `toolSearch` options, plus, for the
 * paraphrases, how often the best tool is at least in the target's group, how often the answer
 * holds no tool, and how often such an answer lists the groups instead.
 */
export async function searchQuality(options) {
  const tools = catalogTools();
  const found = toolSearch({ tools, ...options });
  const groupOf = new Map(catalog.map((t) => [t.name, t.group]));
  const measure = async (kind) => {
    let hit1 = 0;
    let hit5 = 0;
    let rr = 0;
    let group1 = 0;
    let empty = 0;
    let groupsInstead = 0;
    for (const q of queries) {
      const answer = await answerOf(found, q[kind]);
      const names = (answer.tools ?? []).map((t) => t.name);
      const rank = names.indexOf(q.tool);
      if (rank === 0) hit1++;
      if (rank >= 0 && rank < 5) hit5++;
      if (rank >= 0 && rank < 5) rr += 1 / (rank + 1);
      if (names.length > 0 && groupOf.get(names[0]) === groupOf.get(q.tool)) group1++;
      if (names.length === 0) {
        empty++;
        if (Array.isArray(answer.groups) && answer.groups.length > 0) groupsInstead++;
      }
    }
    const n = queries.length;
    return { hit1: hit1 / n, hit5: hit5 / n, mrr: rr / n, group1: group1 / n, empty, groupsInstead, n };
  };
  return { exact: await measure("exact"), paraphrase: await measure("paraphrase"), tools: tools.length, searchTool: found.searchTool };
}
