/**
 * Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, SIGIR 2009): a tool ranked r-th
 * (from 1) by a ranking gets 1/(k + r) from it. With k = 60, the paper's value, the first places
 * of one ranking do not drown the other: first in one and absent from the other (1/61) scores
 * less than third in both (2/63).
 */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of rankings (each a list of item indices, best first, any subset of the
 * items): each item's summed 1/(k + rank), in item order; 0 for an item no ranking holds. Ranks,
 * not scores, so BM25's unbounded scores and cosines in [-1, 1] need no common scale.
 *
 * @example
 * fuseRanks([[0, 1], [1, 2]], 3); // [1/61, 1/62 + 1/61, 1/62]
 */
export function fuseRanks(rankings: readonly (readonly number[])[], size: number, k: number = RRF_K): number[] {
  const fused = new Array<number>(size).fill(0);
  for (const ranking of rankings) {
    ranking.forEach((item, rank) => {
      fused[item] = (fused[item] as number) + 1 / (k + rank + 1);
    });
  }
  return fused;
}

/**
 * Indices of the items whose score passes `keep`, by score, best first; ties by `names` so a
 * ranking never depends on the order the tools were given.
 */
export function rankingOf(scores: readonly number[], names: readonly string[], keep: (score: number) => boolean): number[] {
  const items: number[] = [];
  scores.forEach((score, i) => {
    if (keep(score)) items.push(i);
  });
  return items.sort((a, b) => (scores[b] as number) - (scores[a] as number) || compare(names[a] as string, names[b] as string));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
