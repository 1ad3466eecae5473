/**
 * A word's stem by the inflectional steps of Porter's stemmer (1980: steps 1a, 1b, 1c and 5), so
 * "refunds", "refunded" and "refunding" all read "refund", "copies" and "copy" read "copi", and
 * "scaling" reads "scale". The derivational steps (2–4: "-ation", "-ness", …) are left out: they
 * merge words whose meanings differ ("general"/"generate"), which costs a tool search more than
 * it gains. Words with anything but the letters a–z (`k8s`, `e164`, non-English words) are kept
 * as they are.
 *
 * @example
 * stemOf("charges"); // "charg"
 * stemOf("charged"); // "charg"
 * stemOf("status"); // "statu"
 */
export function stemOf(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  // 1a: plurals.
  if (w.endsWith("sses") || w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);
  // 1b: past tenses and gerunds, then the spelling they took off.
  let cut = false;
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    cut = true;
  } else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    cut = true;
  }
  if (cut) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (doubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && consonantVowelConsonant(w)) w += "e";
  }
  // 1c: a final y after a vowel-bearing stem.
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  // 5: a final e, and a final double l, on long enough stems.
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !consonantVowelConsonant(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
  return c === "y" ? i === 0 || !isConsonant(w, i - 1) : true;
}

/** Porter's m: how many vowel-then-consonant runs the word has. */
function measure(w: string): number {
  let m = 0;
  let sawVowel = false;
  for (let i = 0; i < w.length; i++) {
    if (!isConsonant(w, i)) sawVowel = true;
    else if (sawVowel) {
      m++;
      sawVowel = false;
    }
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function doubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** Ends consonant, vowel, consonant, the last not w, x or y ("hop", not "snow"). */
function consonantVowelConsonant(w: string): boolean {
  const n = w.length;
  return n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !/[wxy]$/.test(w);
}
