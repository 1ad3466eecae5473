import type { RunOptions } from "./run-options.js";
import { closestName } from "../util/closest-name.js";

/**
 * Every key of `RunOptions`, as a record so that the compiler fails here when an option is added
 * to or removed from the interface without this list.
 */
const OPTION_KEYS: Record<keyof RunOptions, true> = {
  engine: true,
  toolExecutor: true,
  toolResultEncoder: true,
  onToolError: true,
  toolTimeout: true,
  maxConcurrency: true,
  context: true,
  sessionId: true,
  requestId: true,
  signal: true,
  validateArguments: true,
  scheduler: true,
  toolIdleTimeout: true,
  onCallReport: true,
  cancel: true,
  retry: true,
  settleGrace: true,
  onUnknownTool: true,
  approvals: true,
  approvalSecret: true,
  approvalLedger: true,
};

/** The keys of `RunOptions`. A key outside them is a typo or an option of something else. */
export const RUN_OPTION_KEYS: readonly string[] = Object.freeze(Object.keys(OPTION_KEYS));

const known: ReadonlySet<string> = new Set(RUN_OPTION_KEYS);

/**
 * Refuse an options object with a key no option has: `{ timeout: 5_000 }` would otherwise run
 * with the default 30 s deadline and say nothing. TypeScript catches this only in an object
 * literal; a spread or a config read at run time reaches here unchecked. `extra` names the keys
 * a caller adds on top of `RunOptions` (the agent loop's `model`, `tools`, ...).
 *
 * @throws {TypeError} naming the key, the option it was probably meant to be, and the options.
 */
export function assertKnownOptions(options: object, extra?: ReadonlySet<string>): void {
  for (const key of Object.keys(options)) {
    if (known.has(key) || extra?.has(key)) continue;
    const names = extra === undefined ? RUN_OPTION_KEYS : [...RUN_OPTION_KEYS, ...extra];
    const meant = closestName(key, names) ?? names.find((name) => name.toLowerCase().endsWith(key.toLowerCase()));
    throw new TypeError(
      `Unknown option \`${key}\`${meant === undefined ? "" : ` (did you mean \`${meant}\`?)`}; the options are ${names.map((n) => `\`${n}\``).join(", ")}`,
    );
  }
}
