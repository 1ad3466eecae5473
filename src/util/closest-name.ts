/**
 * The available name nearest to `name` by edit distance (case ignored), when it is near enough
 * to be a likely typo: at most a third of the name's length, and at least 1, apart.
 */
export function closestName(name: string, available: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of available) {
    const distance = editDistance(wanted, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, cut short once it reaches `cap` (the caller only needs smaller ones). */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    previous = row;
  }
  return previous[b.length] as number;
}
