import type { Tool } from "../../tool/tool.js";
import { describe } from "../../util/safe.js";
import { isStopWord } from "./tool-index-text.js";
import { stemOf } from "./word-stem.js";

/** A group of tools a model can browse: its name, a one-line summary, and how many tools it has. */
export interface ToolGroupInfo {
  readonly name: string;
  readonly summary: string;
  readonly size: number;
}

/**
 * A tool's group, when `toolSearch` is not told one: `metadata.group` when it is a string; else
 * the MCP server before `__` (`github__create_issue`, as `mcpTools` names them); else the first
 * word before `_` or `-` when at least two tools share it and it is not one of the usual leading
 * verbs of tool names (`stripe_create_refund` is in `stripe`; `create_invoice` is in none).
 */
export function defaultGroups(tools: readonly Tool[]): (string | undefined)[] {
  const prefixOf = (name: string) => /^([A-Za-z0-9]+)[_-]/.exec(name)?.[1];
  const shared = new Map<string, number>();
  for (const { name } of tools) {
    const prefix = prefixOf(name);
    if (prefix !== undefined) shared.set(prefix, (shared.get(prefix) ?? 0) + 1);
  }
  return tools.map(({ name, metadata }) => {
    if (typeof metadata.group === "string" && metadata.group !== "") return metadata.group;
    const server = /^(.+?)__./.exec(name)?.[1];
    if (server !== undefined) return server;
    const prefix = prefixOf(name);
    return prefix !== undefined && (shared.get(prefix) ?? 0) >= 2 && !VERBS.has(prefix.toLowerCase()) ? prefix : undefined;
  });
}

/** The groups of `tools` (one group name or none per tool), in order of first appearance. */
export function groupInfos(tools: readonly Tool[], groups: readonly (string | undefined)[], summaries: Readonly<Record<string, string>>): ToolGroupInfo[] {
  const members = new Map<string, Tool[]>();
  tools.forEach((tool, i) => {
    const group = groups[i];
    if (group === undefined) return;
    if (typeof group !== "string" || group === "")
      throw new TypeError(`Expected \`group\` to give a non-empty string or undefined for tool "${tool.name}", got ${describe(group)}`);
    members.set(group, [...(members.get(group) ?? []), tool]);
  });
  const words = [...members].map(([name, list]) => groupWords(name, list));
  const spread = new Map<string, number>();
  for (const counts of words) for (const stem of counts.keys()) spread.set(stem, (spread.get(stem) ?? 0) + 1);
  return [...members].map(([name, list], g) => {
    const given = summaries[name];
    return { name, summary: typeof given === "string" ? given : distinctive(words[g] as GroupWords, spread, members.size), size: list.length };
  });
}

/** The search tool's lines about the groups: one a group, with its size and summary. */
export function groupLines(groups: readonly ToolGroupInfo[]): string {
  return groups.map((g) => `- ${g.name} (${g.size} tool${g.size === 1 ? "" : "s"}): ${g.summary}`).join("\n");
}

type GroupWords = Map<string, { surface: string; tools: number }>;

/**
 * Each word stem of the group's tools (names and descriptions), but the usual verbs of tool names:
 * in how many of them it is, and how it was first written.
 */
function groupWords(group: string, tools: readonly Tool[]): GroupWords {
  const counts: GroupWords = new Map();
  const own = new Set(group.toLowerCase().split(/[^a-z0-9]+/));
  for (const tool of tools) {
    const seen = new Set<string>();
    const text = `${tool.name.replace(/[_\-.:/]+/g, " ")} ${tool.description}`.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
    for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < 3 || isStopWord(word) || FUNCTION_WORDS.has(word) || VERBS.has(word) || own.has(word) || /^\d+$/.test(word)) continue;
      const stem = stemOf(word);
      if (seen.has(stem)) continue;
      seen.add(stem);
      const entry = counts.get(stem);
      counts.set(stem, { surface: entry?.surface ?? word, tools: (entry?.tools ?? 0) + 1 });
    }
  }
  return counts;
}

/** The group's most telling words: frequent in the group, rare in the others (tf·idf over groups). */
function distinctive(counts: GroupWords, spread: ReadonlyMap<string, number>, groups: number): string {
  const score = (stem: string, tools: number) => tools * Math.log(1 + groups / (spread.get(stem) ?? 1));
  return [...counts]
    .sort(([a, x], [b, y]) => score(b, y.tools) - score(a, x.tools) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, SUMMARY_WORDS)
    .map(([, { surface }]) => surface)
    .join(", ");
}

/** Words a derived summary shows: enough to tell a group apart, few enough for a line. */
const SUMMARY_WORDS = 6;

/** English function words, besides the index's stop words: they say nothing of what a group holds. */
const FUNCTION_WORDS: ReadonlySet<string> = /* @__PURE__ */ new Set(
  /* @__PURE__ */ "about above after against among before behalf below between but during each else how into like more most much need needed not now off only other over per same some such than then there these they those through under until upon very via what which while who whom why within without".split(
    " ",
  ),
);

/** Leading words of tool names that say what a tool does, not where it belongs. */
const VERBS: ReadonlySet<string> = /* @__PURE__ */ new Set(
  /* @__PURE__ */ "get list create update delete remove add set send search find read write run start stop open close make show fetch post put patch query cancel enable disable check book upload download import export sync generate".split(
    " ",
  ),
);
