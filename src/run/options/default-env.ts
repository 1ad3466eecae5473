import { availableCores } from "../../util/cores.js";
import { type RunEnv, resolveOptions } from "./options.js";
import type { RunOptions } from "./run-options.js";

/** {@link runEnvOf}'s defaults, by concurrency (at most twice the cores: a short array). */
const defaults: RunEnv[] = [];

/**
 * {@link resolveOptions} for a run's entry, with the defaults resolved once per concurrency: a
 * run given no options (a one-call batch's `runToolCalls(calls, tools)`, as an MCP host makes
 * it) has nothing to check, so it resolves nothing again. Only the context is the run's own: a
 * handler may write into the default `{}`, and another run must not read it. A given options
 * object is always resolved: it is the caller's, and may have changed since it was last seen.
 *
 * @throws {TypeError} as {@link resolveOptions}.
 */
export function runEnvOf(options: RunOptions | undefined, callCount: number | undefined): RunEnv {
  if (options !== undefined) return resolveOptions(options, callCount);
  const cap = 2 * availableCores();
  const concurrency = callCount === undefined ? cap : Math.max(1, Math.min(callCount, cap));
  let env = defaults[concurrency];
  if (env === undefined) {
    env = resolveOptions(undefined, callCount);
    defaults[concurrency] = env;
  }
  return { ...env, context: {} };
}
