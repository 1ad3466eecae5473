import type { Tool } from "../../tool/tool.js";
import { describe } from "../../util/safe.js";
import { toolText } from "./tool-index-text.js";

/**
 * Vectors for texts, in their order: any embedding model. It is given natural text: for a tool,
 * its name, its description and a line per argument with its description, as written
 * (`"k8s__scale_deployment\nScale a deployment…\nreplicas: Desired number of replicas"`); for a
 * search, the query as the model wrote it.
 */
export type EmbedTexts = (texts: readonly string[]) => PromiseLike<readonly (readonly number[])[]>;

/**
 * Where tools' embeddings are kept, keyed by the tool's text (what {@link EmbedTexts} is given for
 * it): a `Map` will do.
 * Share one between `toolSearch` instances (a server's tools listed again) and only the tools
 * whose text changed are embedded again. One cache per embedding model: vectors of two models do
 * not compare.
 */
export interface EmbeddingCache {
  get(text: string): readonly number[] | undefined;
  set(text: string, vector: readonly number[]): unknown;
}

/**
 * Cosine similarity of a query to each tool, by an embedding model. A tool's text is embedded
 * once (the cache keeps it; searches running together share one request), in batches of at most
 * `batchSize` texts, sent one after another; the query rides in the last batch, so a search
 * after the first costs one request of one text.
 */
export class EmbeddingIndex {
  readonly #texts: readonly string[];
  readonly #unique: readonly string[];
  readonly #pending = new Map<string, Promise<readonly number[]>>();

  constructor(
    tools: readonly Tool[],
    readonly embed: EmbedTexts,
    readonly cache: EmbeddingCache,
    readonly batchSize: number,
  ) {
    this.#texts = tools.map(toolText);
    this.#unique = [...new Set(this.#texts)];
  }

  /** Each tool's cosine to `query`, in the order the index was given; rejects when `embed` fails. */
  async scores(query: string): Promise<number[]> {
    const known = new Map<string, PromiseLike<readonly number[]>>();
    const fresh: string[] = [];
    for (const text of this.#unique) {
      const cached = this.cache.get(text);
      const pending = this.#pending.get(text);
      if (cached !== undefined) known.set(text, Promise.resolve(cached));
      else if (pending !== undefined) known.set(text, pending);
      else fresh.push(text);
    }
    const run = this.#embedAll([...fresh, query]);
    fresh.forEach((text, i) => {
      const vector = run.then((vectors) => {
        const v = vectors[i] as readonly number[];
        this.cache.set(text, v);
        return v;
      });
      const settled = () => this.#pending.delete(text);
      vector.then(settled, settled); // also marks a failure handled: the search awaits `run` and fails
      this.#pending.set(text, vector);
      known.set(text, vector);
    });
    const wanted = (await run)[fresh.length] as readonly number[];
    const byText = new Map<string, readonly number[]>();
    await Promise.all([...known].map(async ([text, vector]) => byText.set(text, await vector)));
    return this.#texts.map((text) => cosine(wanted, byText.get(text) as readonly number[], text));
  }

  async #embedAll(texts: readonly string[]): Promise<(readonly number[])[]> {
    const out: (readonly number[])[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      const vectors = await this.embed(batch);
      if (!Array.isArray(vectors) || vectors.length !== batch.length)
        throw new TypeError(`Expected \`embed\` to return ${batch.length} vectors for ${batch.length} texts, got ${describe(vectors)}`);
      for (const v of vectors) {
        if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "number" || !Number.isFinite(x)))
          throw new TypeError(`Expected \`embed\` to return vectors of finite numbers, got ${describe(v)}`);
        out.push(v);
      }
    }
    return out;
  }
}

function cosine(a: readonly number[], b: readonly number[], text: string): number {
  if (a.length !== b.length)
    throw new TypeError(
      `The query's embedding has ${a.length} dimensions, tool text ${describe(text.split("\n")[0])}'s ${b.length}: is the \`embedCache\` shared with another model?`,
    );
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  // Each norm apart: their product can underflow to 0 (tiny vectors) and give NaN or -Infinity,
  // which no sort orders consistently.
  const norms = Math.sqrt(na) * Math.sqrt(nb);
  const cos = norms === 0 ? 0 : dot / norms;
  return Number.isFinite(cos) ? cos : 0;
}
