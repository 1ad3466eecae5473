import { defineTool, type Tool } from "../../tool/tool.js";
import { ok } from "../../tool/results.js";
import { closestName } from "../../util/closest-name.js";
import { describe } from "../../util/safe.js";
import { assertKnownKeys, knownKeys } from "../../util/known-keys.js";
import type { PrepareTurn } from "../prepare-turn/index.js";
import { EmbeddingIndex, type EmbeddingCache, type EmbedTexts } from "./embedding-index.js";
import { LexicalIndex, ranked, type ToolMatch } from "./lexical-index.js";
import { fuseRanks, rankingOf } from "./rank-fusion.js";
import { defaultGroups, groupInfos, groupLines, type ToolGroupInfo } from "./tool-groups.js";
import { loadedTools } from "./loaded-tools.js";

export type { ToolMatch } from "./lexical-index.js";
export type { EmbeddingCache, EmbedTexts } from "./embedding-index.js";
export type { ToolGroupInfo } from "./tool-groups.js";
export { RRF_K } from "./rank-fusion.js";

/** Options of {@link toolSearch}. */
export interface ToolSearchOptions {
  /** Every tool of the agent; all but `alwaysLoaded` are deferred until a search finds them. */
  readonly tools: readonly Tool[];
  /** Tools the model always sees, by name. Default none (the search tool alone). */
  readonly alwaysLoaded?: readonly string[];
  /** Tools one search loads at most. Default 5. */
  readonly maxResults?: number;
  /** The search tool's name. Default `"search_tools"`. */
  readonly name?: string;
  /**
   * An embedding model, to rank by meaning as well as words: the lexical and the embedding ranks
   * are fused ({@link RRF_K}), and a tool named exactly by the query still comes first. It gets
   * natural text: each tool's name, description and argument descriptions as written (once per
   * text, cached), and each query as the model wrote it. A failing `embed` fails that search, as
   * a handler's throw.
   */
  readonly embed?: EmbedTexts;
  /** Texts `embed` is given at most per call. Default 100 (OpenAI takes 2,048, most local models less). */
  readonly embedBatchSize?: number;
  /** Where tools' embeddings are kept, by text. Default a `Map` of this search's own. */
  readonly embedCache?: EmbeddingCache;
  /**
   * Each tool's group (`undefined` for none), which the search tool lists and a model can
   * browse by name. Default: the tool's `metadata.group`, else its MCP server (`github` of
   * `github__create_issue`), else the first word of its name when two or more tools share it and
   * it is not a usual leading verb (`stripe` of `stripe_create_refund`; none for `create_invoice`).
   */
  readonly group?: (tool: Tool) => string | undefined;
  /** A one-line summary per group name. Default: the group's most telling words. */
  readonly groupSummaries?: Readonly<Record<string, string>>;
}

/** What {@link toolSearch} gives an agent: its tools and the `prepareTurn` that defers them. */
export interface ToolSearch {
  /** `tools` and the search tool: the agent's `tools`. */
  readonly tools: readonly Tool[];
  readonly searchTool: Tool<{ query: string }>;
  /**
   * Offers the always-loaded tools, the search tool, and every tool a search in the conversation
   * found: read from the conversation each turn, so a resumed or restarted run offers the same.
   */
  readonly prepareTurn: PrepareTurn;
  /** The search the tool runs, for the host's own use: no match for an empty query. */
  search(query: string): Promise<readonly ToolMatch[]>;
  /** The groups of the deferred tools, as the search tool lists them. */
  readonly groups: readonly ToolGroupInfo[];
}

const KEYS = /* @__PURE__ */ knownKeys({
  tools: true,
  alwaysLoaded: true,
  maxResults: true,
  name: true,
  embed: true,
  embedBatchSize: true,
  embedCache: true,
  group: true,
  groupSummaries: true,
} satisfies Record<keyof ToolSearchOptions, true>);

/**
 * Tool search with deferred loading, for any provider: the model sees a search tool and the tools
 * you keep loaded; a search answers with the matching tools, which are offered from the next
 * turn. It ranks by a BM25F index over the tools' names, descriptions and arguments, fused with
 * your embeddings when `embed` is given. Tools carry groups (an MCP server, a namespace) that the
 * search tool lists: a query naming a group answers its tools, an empty one the groups, and so
 * does a search that finds nothing. A call to a tool not loaded yet is answered `not_found`,
 * saying how to load it. Hundreds of tools then cost the request only the few the task needs.
 *
 * @throws {TypeError} for unknown or ill-typed options, a name clash with the search tool, or an
 * `alwaysLoaded` name that is not a tool.
 *
 * @example
 * const found = toolSearch({ tools: allTools, alwaysLoaded: ["ask_user"] });
 * runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages });
 */
export function toolSearch(options: ToolSearchOptions): ToolSearch {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected toolSearch options to be an object, got ${describe(options)}`);
  assertKnownKeys(options, KEYS, { noun: "option", where: " of toolSearch" });
  const { tools, alwaysLoaded = [], maxResults = 5, name = "search_tools", embed, embedBatchSize = 100, embedCache, group, groupSummaries = {} } = options;
  if (!Array.isArray(tools) || tools.some((t) => typeof (t as { name?: unknown } | null)?.name !== "string"))
    throw new TypeError(`Expected \`tools\` to be an array of tools, got ${describe(tools)}`);
  if (!(Number.isInteger(maxResults) && maxResults > 0 && maxResults <= 50))
    throw new TypeError(`Expected \`maxResults\` to be an integer from 1 to 50, got ${describe(maxResults)}`);
  if (embed !== undefined && typeof embed !== "function") throw new TypeError(`Expected \`embed\` to be a function (texts) => vectors, got ${describe(embed)}`);
  if (!(Number.isInteger(embedBatchSize) && embedBatchSize > 0))
    throw new TypeError(`Expected \`embedBatchSize\` to be a positive integer, got ${describe(embedBatchSize)}`);
  if (embedCache !== undefined && (typeof embedCache?.get !== "function" || typeof embedCache?.set !== "function"))
    throw new TypeError(`Expected \`embedCache\` to have get and set, as a Map, got ${describe(embedCache)}`);
  if (group !== undefined && typeof group !== "function") throw new TypeError(`Expected \`group\` to be a function (tool) => name, got ${describe(group)}`);
  if (typeof groupSummaries !== "object" || groupSummaries === null)
    throw new TypeError(`Expected \`groupSummaries\` to be a record of group names to summaries, got ${describe(groupSummaries)}`);
  const names = tools.map((t) => t.name);
  if (names.includes(name)) throw new TypeError(`Tool "${name}" clashes with the search tool's name; pass another \`name\``);
  if (!Array.isArray(alwaysLoaded)) throw new TypeError(`Expected \`alwaysLoaded\` to be an array of tool names, got ${describe(alwaysLoaded)}`);
  for (const kept of alwaysLoaded) {
    if (!names.includes(kept)) {
      const near = typeof kept === "string" ? closestName(kept, names) : undefined;
      throw new TypeError(`\`alwaysLoaded\` names ${describe(kept)}, which is not in \`tools\`${near === undefined ? "" : `; did you mean "${near}"?`}`);
    }
  }
  const kept = new Set(alwaysLoaded);
  const deferred = tools.filter((t) => !kept.has(t.name));
  const deferredNames = deferred.map((t) => t.name);
  const groupOf = group === undefined ? defaultGroups(deferred) : deferred.map(group);
  const groups = groupInfos(deferred, groupOf, groupSummaries);
  const groupOfName = new Map(deferred.map((t, i) => [t.name, groupOf[i]]));
  const index = new LexicalIndex(deferred);
  const semantic = embed === undefined ? undefined : new EmbeddingIndex(deferred, embed, embedCache ?? new Map(), embedBatchSize);

  const search = async (query: string): Promise<readonly ToolMatch[]> => {
    if (query.trim() === "") return [];
    const lexical = index.scores(query);
    let scores = lexical;
    if (semantic !== undefined) {
      const meaning = await semantic.scores(query);
      const wanted = query.trim().toLowerCase();
      scores = fuseRanks([rankingOf(lexical, deferredNames, (s) => s > 0), rankingOf(meaning, deferredNames, () => true)], deferred.length);
      // A name given exactly is the model asking for that tool: above anything fusion can add (2/61).
      deferredNames.forEach((n, i) => {
        if (n.toLowerCase() === wanted) scores[i] = (scores[i] as number) + 1;
      });
    }
    return ranked(deferred, scores, maxResults).map((m) => {
      const g = groupOfName.get(m.name);
      return g === undefined ? m : { ...m, group: g };
    });
  };

  const browse = groups.length === 0 ? "" : ", in these groups (search a group's name to list its tools, or nothing to list the groups):";
  const searchTool = defineTool({
    name,
    description:
      `Find tools for a task: describe what you need in a few words. The tools found can be called from your next turn. ${deferred.length} tools can be found this way${browse || "."}` +
      (groups.length === 0 ? "" : `\n${groupLines(groups)}`),
    schema: {
      type: "object",
      properties: { query: { type: "string", description: "What the tool should do, e.g. 'book a flight'; or a group's name" } },
      required: ["query"],
      additionalProperties: false,
    } as const,
    handler: async ({ query }) => {
      const asked = query.trim().toLowerCase();
      const named = groups.find((g) => g.name.toLowerCase() === asked);
      if (named !== undefined && !deferredNames.some((n) => n.toLowerCase() === asked)) {
        const members = deferred.filter((t) => groupOfName.get(t.name) === named.name);
        return ok({
          group: named.name,
          loaded: [],
          tools: members.map(({ name: n, description }) => ({ name: n, description })),
          note: "Search a tool's name to load it.",
        });
      }
      const matches = await search(query);
      const found = { loaded: matches.map((m) => m.name), tools: matches.map(({ name: n, description }) => ({ name: n, description })) };
      if (matches.length > 0 || groups.length === 0) return ok(found);
      const note =
        asked === ""
          ? "Search a group's name to list its tools."
          : "No tool matched. Search a group's name to list its tools, or describe the task in other words.";
      return ok({ ...found, groups, note });
    },
  });

  const base = [...alwaysLoaded, name];
  const deferredSet: ReadonlySet<string> = new Set(deferredNames);
  const prepareTurn: PrepareTurn = ({ messages }) => ({
    tools: [...base, ...loadedTools(messages, name, deferredSet)],
    notOffered: `find it with ${name} first: the tools a search finds can be called from the next turn`,
  });
  return { tools: [...tools, searchTool], searchTool, prepareTurn, search, groups };
}
