/**
 * Whether this run is a hunt's round: `TOOLRX_HUNT=1`, which `npm run hunt` (scripts/hunt.mjs)
 * sets on every round it runs, and the one switch for anything a test does otherwise in a hunt.
 * Set it by hand to hunt one file on one seed (`TOOLRX_HUNT=1 TOOLRX_SEED=<n> npx vitest run
 * <file>`). Any other value is an error rather than an `npm test` in disguise.
 */
export function hunting(env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = env.TOOLRX_HUNT;
  if (flag === undefined || flag === "") return false;
  if (flag !== "1") throw new TypeError(`Expected \`TOOLRX_HUNT\` to be 1 or unset, got ${JSON.stringify(flag)}`);
  return true;
}

/**
 * A property's run count: `usual` in `npm test`, `hunt` in a hunt's round. A round runs every
 * property file once on a new seed, so `hunt` is what one round can afford, not a long search on
 * one seed: many rounds of a bounded count look in more places than one round of a huge one.
 * `HUNT`, the switch the code-mode properties read before, is an error, not silently ignored.
 *
 * @example
 * fc.assert(property, { numRuns: huntRuns(25, 100) }); // 25 in npm test, 100 a hunt's round
 */
export function huntRuns(usual: number, hunt: number, env: NodeJS.ProcessEnv = process.env): number {
  if (env.HUNT !== undefined) throw new TypeError("`HUNT` is not read any more: set `TOOLRX_HUNT=1` (docs/testing.md)");
  return hunting(env) ? hunt : usual;
}
