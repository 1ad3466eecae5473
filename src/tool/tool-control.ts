import { describe } from "./tool-error.js";
import { checkRetryPolicy, type RetryPlan, type RetryPolicy } from "./retry-policy.js";
import { assertKnownKeys, knownKeys, type KnownKeys } from "../util/known-keys.js";
import { isTimeout, TIMEOUT_RULE } from "../util/timeout.js";

/**
 * How the runner treats a tool's calls, declared next to its handler (`defineTool({ control })`),
 * because only the tool's author knows whether it may run twice or what resource it shares.
 */
export interface ToolControl {
  /**
   * At most this many of the tool's calls at once (a positive integer), or a limit shared by
   * every tool naming the same `group` (one database pool). Below `maxConcurrency`, a call
   * waiting for it holds no global slot, so other tools' calls go ahead.
   */
  concurrency?: number | { readonly group: string; readonly limit: number };
  /** Running the call twice has the effect of running it once; required for retries by default. */
  idempotent?: boolean;
  /** This tool's retry policy, over `RunOptions.retry`; `false` never retries it. */
  retry?: RetryPolicy | false;
  /**
   * This tool's deadline per attempt, in ms from its handler's start, over `RunOptions.toolTimeout`
   * (`Infinity`: none). Only the tool's author knows that a report takes minutes and a lookup
   * should take a second.
   */
  timeout?: number;
  /** This tool's idle deadline (no `ctx.progress` for so long), over `RunOptions.toolIdleTimeout`. */
  idleTimeout?: number;
  /** Characters of this tool's messages the model reads at most, over `RunOptions.outputBudget`; see there. */
  outputBudget?: number;
  /**
   * The name of the executor that runs this tool's calls, one of `RunOptions.toolExecutors`
   * (slow tools on BullMQ, the rest in-process). A run without it refuses the tool before
   * anything runs. Default: the run's `toolExecutor`.
   */
  executor?: string;
}

/**
 * Every key of {@link ToolControl}: the compiler fails here when one is added to the interface and
 * not to this list, which is what `control`'s unknown-key check reads.
 */
const CONTROL_KEYS: Record<keyof ToolControl, true> = {
  concurrency: true,
  idempotent: true,
  retry: true,
  timeout: true,
  idleTimeout: true,
  outputBudget: true,
  executor: true,
};

/** The keys a `control` may have, and where the run-wide names of its fields point. */
const TOOL_CONTROL_KEYS: KnownKeys = /* @__PURE__ */ knownKeys(CONTROL_KEYS, {
  maxConcurrency: "concurrency",
  limit: "concurrency",
  toolTimeout: "timeout",
  toolIdleTimeout: "idleTimeout",
});

/** A tool's {@link ToolControl}, checked: what the pool reads per call. */
export interface ControlPlan {
  /** `tool:<name>` or `group:<group>`: calls with the same lane share its limit. */
  readonly lane: string | undefined;
  readonly limit: number;
  readonly idempotent: boolean;
  /** `undefined`: follow `RunOptions.retry`; `false`: never. */
  readonly retry: RetryPlan | false | undefined;
  /** `undefined`: follow `RunOptions.toolTimeout`. */
  readonly timeout: number | undefined;
  /** `undefined`: follow `RunOptions.toolIdleTimeout`. */
  readonly idleTimeout: number | undefined;
  /** `undefined`: follow `RunOptions.outputBudget`. */
  readonly outputBudget: number | undefined;
  /** `undefined`: the run's `toolExecutor`. */
  readonly executor: string | undefined;
}

/**
 * Check a tool's `control` where the tool is defined.
 *
 * @throws {TypeError} naming the field (an unknown one too), or when a retry is declared for a
 * tool that is neither `idempotent` nor explicitly `nonIdempotent: true`.
 */
export function checkToolControl(control: unknown, toolName: string): ControlPlan {
  if (typeof control !== "object" || control === null || Array.isArray(control)) {
    throw new TypeError(`Expected \`control\` of tool "${toolName}" to be an object, got ${describe(control)}`);
  }
  assertKnownKeys(control, TOOL_CONTROL_KEYS, { noun: "key", where: ` in \`control\` of tool "${toolName}"` });
  const { concurrency, idempotent = false, retry, timeout, idleTimeout, outputBudget, executor } = control as ToolControl;
  if (executor !== undefined && (typeof executor !== "string" || executor === "")) {
    throw new TypeError(`Expected \`control.executor\` of tool "${toolName}" to be the name of one of \`toolExecutors\`, got ${describe(executor)}`);
  }
  let lane: string | undefined;
  let limit = Infinity;
  if (typeof concurrency === "number") {
    if (!(Number.isInteger(concurrency) && concurrency > 0)) {
      throw new TypeError(`Expected \`control.concurrency\` of tool "${toolName}" to be a positive integer, got ${describe(concurrency)}`);
    }
    lane = `tool:${toolName}`;
    limit = concurrency;
  } else if (concurrency !== undefined) {
    const { group, limit: groupLimit } = (concurrency ?? {}) as { group?: unknown; limit?: unknown };
    if (typeof group !== "string" || group === "" || !(Number.isInteger(groupLimit) && (groupLimit as number) > 0)) {
      throw new TypeError(
        `Expected \`control.concurrency\` of tool "${toolName}" to be a positive integer or { group: string, limit: positive integer }, got ${describe(concurrency)}`,
      );
    }
    lane = `group:${group}`;
    limit = groupLimit as number;
  }
  if (typeof idempotent !== "boolean") {
    throw new TypeError(`Expected \`control.idempotent\` of tool "${toolName}" to be a boolean, got ${describe(idempotent)}`);
  }
  for (const [key, value] of [
    ["timeout", timeout],
    ["idleTimeout", idleTimeout],
  ] as const) {
    if (value !== undefined && !isTimeout(value)) {
      throw new TypeError(`Expected \`control.${key}\` of tool "${toolName}" ${TIMEOUT_RULE}, got ${describe(value)}`);
    }
  }
  let plan: RetryPlan | false | undefined;
  if (retry === false) plan = false;
  else if (retry !== undefined) {
    plan = checkRetryPolicy(retry, "control.retry", ` of tool "${toolName}"`);
    if (!idempotent && !plan.nonIdempotent) {
      throw new TypeError(
        `Tool "${toolName}" declares \`control.retry\` but not \`control.idempotent: true\`: a retry may run it twice. Declare it idempotent, or set \`retry.nonIdempotent: true\` to retry anyway`,
      );
    }
  }
  const budget = outputBudget === undefined ? undefined : checkOutputBudget(outputBudget, "control.outputBudget", ` of tool "${toolName}"`);
  return { lane, limit, idempotent, retry: plan, timeout, idleTimeout, outputBudget: budget, executor };
}

/** The smallest budget: room for the marker and some of the content's head and tail. */
const MIN_BUDGET = 64;

/**
 * Check an output budget.
 *
 * @throws {TypeError} naming `option` when it is not an integer from 64 (or `Infinity`).
 */
export function checkOutputBudget(budget: unknown, option: string, of: string): number {
  if (budget === Infinity || (Number.isInteger(budget) && (budget as number) >= MIN_BUDGET)) return budget as number;
  throw new TypeError(`Expected \`${option}\`${of} to be an integer of characters from ${MIN_BUDGET}, or Infinity, got ${describe(budget)}`);
}

/** The retry plan a call runs under: the tool's own, else the run's for idempotent tools. */
export function retryPlanOf(control: ControlPlan | undefined, runRetry: RetryPlan | undefined): RetryPlan | undefined {
  if (control?.retry === false) return undefined;
  if (control?.retry !== undefined) return control.retry;
  if (runRetry === undefined) return undefined;
  return control?.idempotent === true || runRetry.nonIdempotent ? runRetry : undefined;
}

const plans = new WeakMap<object, ControlPlan>();

/**
 * The checked control of a tool, once per tool: tools written as plain objects (not through
 * `defineTool`) are checked here, on their first call.
 *
 * @throws {TypeError} as {@link checkToolControl}.
 */
export function controlOf(tool: { readonly name: string; readonly control?: ToolControl }): ControlPlan | undefined {
  if (tool.control === undefined) return undefined;
  let plan = plans.get(tool);
  if (plan === undefined) {
    plan = checkToolControl(tool.control, tool.name);
    plans.set(tool, plan);
  }
  return plan;
}
