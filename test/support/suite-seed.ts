/**
 * The seed every fast-check property of `npm test` runs on, so a fresh clone is green or red
 * for a reason and not by the luck of a random seed. Any fixed value would do; this one is
 * where the suite is known green. A hunt (`npm run hunt`) looks elsewhere.
 */
export const FIXED_SEED = 20_261_127;

/**
 * The seed of this test file's properties: `TOOLRX_SEED` when set (a hunt sets a new one each
 * round, and a hunt's find is replayed with it), {@link FIXED_SEED} otherwise. A bad value is an
 * error, not a silent fall back to the fixed seed: a replay must replay what it was asked to.
 */
export function suiteSeed(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.TOOLRX_SEED;
  if (text === undefined || text === "") return FIXED_SEED;
  const seed = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 31) {
    throw new TypeError(`Expected \`TOOLRX_SEED\` to be a 32-bit integer, got ${JSON.stringify(text)}`);
  }
  return seed;
}
