import type { RunOptions } from "./run-options.js";
import { assertKnownKeys, knownKeys, type KnownKeys } from "../../util/known-keys.js";

/**
 * Every key of `RunOptions`, as a record so that the compiler fails here when an option is added
 * to or removed from the interface without this list.
 */
const OPTION_KEYS: Record<keyof RunOptions, true> = {
  engine: true,
  toolExecutor: true,
  toolExecutors: true,
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
  hooks: true,
  outputBudget: true,
  approvals: true,
  approvalSecret: true,
  approvalLedger: true,
  repairToolCall: true,
  approvalTokenTtl: true,
};

const KEYS: KnownKeys = /* @__PURE__ */ knownKeys(OPTION_KEYS);

/** The keys of `RunOptions`. A key outside them is a typo or an option of something else. */
export const RUN_OPTION_KEYS: readonly string[] = KEYS.names;

/**
 * Refuse an options object with a key no option has: `{ timeout: 5_000 }` would otherwise run
 * with the default 30 s deadline and say nothing. `extra` names the keys a caller adds on top of
 * `RunOptions` (the agent loop's `model`, `tools`, ...).
 *
 * @throws {TypeError} naming the key, the option it was probably meant to be, and the options.
 */
export function assertKnownOptions(options: object, extra?: ReadonlySet<string>): void {
  assertKnownKeys(options, KEYS, extra === undefined ? OPTION : { noun: "option", extra });
}

const OPTION = { noun: "option" } as const;
