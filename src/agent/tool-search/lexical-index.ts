import type { Tool } from "../../tool/tool.js";
import { toolFields, wordsOf } from "./tool-index-text.js";

/** A tool a search found, best first. */
export interface ToolMatch {
  readonly name: string;
  readonly description: string;
  /** How well it matched: higher is better; comparable within one search only. */
  readonly score: number;
  /** The group it belongs to, when it has one (see `toolSearch`'s `group`). */
  readonly group?: string;
}

/**
 * A BM25F index over tools' words ({@link toolFields}): a word counts {@link FIELD_WEIGHTS} times
 * in the field it is in, so a word of the name outweighs the same word in an argument's
 * description, and the document length is the weighted one. Deterministic: the same tools and query
 * give the same matches in the same order (ties go by name), so a conversation replayed after a
 * restart loads the same tools.
 */
export class LexicalIndex {
  readonly #docs: { readonly tool: Tool; readonly counts: Map<string, number>; readonly length: number }[] = [];
  readonly #frequency = new Map<string, number>();
  readonly #averageLength: number;

  constructor(tools: readonly Tool[]) {
    let total = 0;
    for (const tool of tools) {
      const counts = new Map<string, number>();
      const fields = toolFields(tool);
      let length = 0;
      for (const field of ["name", "description", "arguments"] as const) {
        const weight = FIELD_WEIGHTS[field];
        for (const word of fields[field]) counts.set(word, (counts.get(word) ?? 0) + weight);
        length += weight * fields[field].length;
      }
      for (const word of counts.keys()) this.#frequency.set(word, (this.#frequency.get(word) ?? 0) + 1);
      this.#docs.push({ tool, counts, length });
      total += length;
    }
    this.#averageLength = this.#docs.length === 0 ? 1 : Math.max(1, total / this.#docs.length);
  }

  /** Each tool's score for `query` (0 for no word in common), in the order the index was given. */
  scores(query: string): number[] {
    const terms = [...new Set(wordsOf(query))];
    const n = this.#docs.length;
    const wanted = query.trim().toLowerCase();
    return this.#docs.map(({ tool, counts, length }) => {
      let score = tool.name.toLowerCase() === wanted ? 100 : 0;
      for (const term of terms) {
        const tf = counts.get(term);
        if (tf === undefined) continue;
        const df = this.#frequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / this.#averageLength));
      }
      return score;
    });
  }

  /** The best `limit` tools with a score above 0, best first. */
  search(query: string, limit: number): ToolMatch[] {
    return ranked(
      this.#docs.map((d) => d.tool),
      this.scores(query),
      limit,
    );
  }
}

/**
 * How much a word counts in each field: a name is a tool's summary in a few words, a description
 * its sentence, the arguments its details (and their often repeated "ID", "name"). BM25F's usual
 * practice of weighing a title two to three times the body.
 */
export const FIELD_WEIGHTS = { name: 3, description: 2, arguments: 1 } as const;

/** BM25's usual constants. */
const K1 = 1.2;
const B = 0.75;

/** Tools by score, best first, ties by name; scores of 0 or less left out. */
export function ranked(tools: readonly Tool[], scores: readonly number[], limit: number): ToolMatch[] {
  const matches: ToolMatch[] = [];
  tools.forEach((tool, i) => {
    const score = scores[i] as number;
    if (score > 0) matches.push({ name: tool.name, description: tool.description, score });
  });
  matches.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return matches.slice(0, limit);
}
