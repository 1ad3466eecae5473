import { defineTool, type Tool } from "../tool/tool.js";
import { ok } from "../tool/results.js";
import { closestName } from "../util/closest-name.js";
import { describe } from "../util/safe.js";
import { assertKnownKeys, knownKeys } from "../util/known-keys.js";
import type { PrepareTurn } from "./prepare-turn.js";
import { LexicalIndex, ranked, type ToolMatch } from "./lexical-index.js";
import { toolWords } from "./tool-index-text.js";
import { loadedTools } from "./loaded-tools.js";

export type { ToolMatch } from "./lexical-index.js";

/** Vectors for texts, in their order: any embedding model. */
export type EmbedTexts = (texts: readonly string[]) => PromiseLike<readonly (readonly number[])[]>;

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
   * Rank by embeddings instead of words (the lexical index still breaks ties). Each tool's text
   * is embedded once, on the first search; a failing embed fails that search, as a handler's throw.
   */
  readonly embed?: EmbedTexts;
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
  /** The search the tool runs, for the host's own use. */
  search(query: string): Promise<readonly ToolMatch[]>;
}

const KEYS = /* @__PURE__ */ knownKeys({ tools: true, alwaysLoaded: true, maxResults: true, name: true, embed: true });

/**
 * Tool search with deferred loading, for any provider: the model sees a search tool and the tools
 * you keep loaded; a search answers with the matching tools (a lexical index over their names,
 * descriptions and argument names, or your embeddings), which are offered from the next turn. A
 * call to a tool not loaded yet is answered `not_found`, saying how to load it. Hundreds of tools
 * then cost the request only the few the task needs.
 *
 * @throws {TypeError} for unknown options, a name clash with the search tool, or an
 * `alwaysLoaded` name that is not a tool.
 *
 * @example
 * const found = toolSearch({ tools: allTools, alwaysLoaded: ["ask_user"] });
 * runAgent({ model, tools: found.tools, prepareTurn: found.prepareTurn, messages });
 */
export function toolSearch(options: ToolSearchOptions): ToolSearch {
  if (typeof options !== "object" || options === null) throw new TypeError(`Expected toolSearch options to be an object, got ${describe(options)}`);
  assertKnownKeys(options, KEYS, { noun: "option", where: " of toolSearch" });
  const { tools, alwaysLoaded = [], maxResults = 5, name = "search_tools", embed } = options;
  if (!Array.isArray(tools) || tools.some((t) => typeof (t as { name?: unknown } | null)?.name !== "string"))
    throw new TypeError(`Expected \`tools\` to be an array of tools, got ${describe(tools)}`);
  if (!(Number.isInteger(maxResults) && maxResults > 0 && maxResults <= 50))
    throw new TypeError(`Expected \`maxResults\` to be an integer from 1 to 50, got ${describe(maxResults)}`);
  if (embed !== undefined && typeof embed !== "function") throw new TypeError(`Expected \`embed\` to be a function (texts) => vectors, got ${describe(embed)}`);
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
  const index = new LexicalIndex(deferred);
  let vectors: Promise<readonly (readonly number[])[]> | undefined;

  const search = async (query: string): Promise<readonly ToolMatch[]> => {
    if (embed === undefined) return index.search(query, maxResults);
    vectors ??= Promise.resolve(embed(deferred.map((t) => toolWords(t).join(" "))));
    const [docs, [wanted]] = await Promise.all([vectors, embed([query])]);
    const lexical = index.scores(query);
    // Cosine first; a word in common only breaks ties, so a lexical score never outweighs meaning.
    const scores = deferred.map((_, i) => cosine(wanted ?? [], docs[i] ?? []) + 1e-6 * Math.min(1, lexical[i] as number) + 1e-9);
    return ranked(deferred, scores, maxResults);
  };

  const searchTool = defineTool({
    name,
    description: `Find tools for a task: describe what you need in a few words. The tools found can be called from your next turn. ${deferred.length} tools can be found this way.`,
    schema: {
      type: "object",
      properties: { query: { type: "string", minLength: 1, description: "What the tool should do, e.g. 'book a flight'" } },
      required: ["query"],
      additionalProperties: false,
    } as const,
    handler: async ({ query }) => {
      const matches = await search(query);
      return ok({ loaded: matches.map((m) => m.name), tools: matches.map(({ name: n, description }) => ({ name: n, description })) });
    },
  });

  const deferredNames: ReadonlySet<string> = new Set(deferred.map((t) => t.name));
  const base = [...alwaysLoaded, name];
  const prepareTurn: PrepareTurn = ({ messages }) => ({
    tools: [...base, ...loadedTools(messages, name, deferredNames)],
    notOffered: `find it with ${name} first: the tools a search finds can be called from the next turn`,
  });
  return { tools: [...tools, searchTool], searchTool, prepareTurn, search };
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
