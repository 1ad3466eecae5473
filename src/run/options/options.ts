import { asyncScheduler, type SchedulerLike, type Subscribable } from "rxjs";
import { availableCores } from "../../util/cores.js";
import { jsonEncoder, type ToolResultEncoder } from "../../tool/encoder.js";
import { defaultExecutor, type ToolExecutor } from "../../tool/executor.js";
import type { OnToolError } from "./policy.js";
import type { CallReport, NestedEventReport } from "../results/index.js";
import { checkRetryPolicy, type RetryPlan } from "../../tool/retry-policy.js";
import { describe } from "../../util/safe.js";
import { assertKnownOptions } from "./unknown-option.js";
import { checkToolExecutors, routedExecutor } from "./tool-executors.js";
import { isTimeout, MAX_TIMEOUT, TIMEOUT_RULE } from "../../util/timeout.js";
import type { CallCancellation, RunOptions } from "./run-options.js";
import { checkHooks, type CallHook } from "../../tool/call-hook.js";
import { checkOutputBudget } from "../../tool/tool-control.js";
import { assertApprovalLedger, type ApprovalLedger } from "../../tool/approval/approval-ledger.js";
import { assertApprovalSecret, type ApprovalSecrets } from "../../tool/approval/approval-token.js";
import { checkApprovalTokenTtl } from "../../tool/approval/approval-binding.js";
import { checkApprovals, type ApprovalMessage } from "../../tool/approval/approvals-option.js";
import { checkRepair, type RepairToolCall } from "../../tool/repair-tool-call.js";
import type { ClientChannel } from "../../tool/client-channel.js";

/**
 * Set by the agent loop on the options of each turn's runner: the loop has settled approvals
 * itself, so the runner runs what it is given. A symbol, so no user option can set it by a typo.
 */
export const LOOP_APPROVES: unique symbol = /* @__PURE__ */ Symbol("toolrx.loopApproves");

/**
 * Set by the agent loop on the options of each turn's runner: where every event of a run nested
 * in a call (a subagent's) goes, whether or not the host listens on `onCallReport`, so that the
 * loop counts a subagent's tokens in `runAgent` too. A symbol, as {@link LOOP_APPROVES}.
 */
export const NESTED_EVENTS: unique symbol = /* @__PURE__ */ Symbol("toolrx.nestedEvents");

/**
 * Set by the agent loop when a turn plan hides some of the run's tools: what a call to one of
 * them is told (it exists, but is not offered this turn, and how to get it), instead of that it
 * does not exist. A symbol, as {@link LOOP_APPROVES}.
 */
export const NOT_OFFERED: unique symbol = /* @__PURE__ */ Symbol("toolrx.notOffered");

/**
 * Set by a remote worker (toolrx/bullmq) on the runner of a job: the job is one attempt of a call
 * whose producer owns its retries and the tool's deadlines, ran its hooks around the remote
 * executor, and judges its result. The worker's runner then neither retries, nor times the tool's
 * `control` deadlines, nor runs the tool's hooks again, on the tool as it is (a copy would lose
 * what is keyed by the tool: an isolated handler, the compiled schema), and sends a reserved halt
 * or content parts back unjudged. A symbol, as {@link LOOP_APPROVES}.
 */
export const REMOTE_ATTEMPT: unique symbol = /* @__PURE__ */ Symbol("toolrx.remoteAttempt");

/**
 * Set by a host that stands between the run and a client (`serveTools`, per MCP request): the
 * {@link ClientChannel} through which a handler's `ctx.askUser` and `ctx.sample` reach the
 * client during the call. A symbol, as {@link LOOP_APPROVES}.
 */
export const CLIENT_CHANNEL: unique symbol = /* @__PURE__ */ Symbol("toolrx.clientChannel");

/** {@link RunOptions} checked, with every default filled in. */
export interface RunEnv {
  /** The run's executor: `toolExecutor`, routing each call whose tool names one to its `toolExecutors` entry. */
  readonly executor: ToolExecutor;
  /** `toolExecutors`, checked; `undefined` when none were given. */
  readonly executors: ReadonlyMap<string, ToolExecutor> | undefined;
  readonly encoder: ToolResultEncoder;
  readonly policy: OnToolError;
  readonly timeout: number;
  readonly concurrency: number;
  readonly context: unknown;
  readonly sessionId: string | undefined;
  readonly requestId: string | undefined;
  readonly engine: unknown;
  readonly signal: AbortSignal | undefined;
  readonly validate: boolean;
  readonly scheduler: SchedulerLike;
  /** Bound on a recipe's parallel steps: `maxConcurrency ?? 2 × cores`, not capped by the batch size. */
  readonly recipeConcurrency: number;
  /** `Infinity` when unset. */
  readonly idleTimeout: number;
  readonly onReport: ((report: CallReport) => void) | undefined;
  /** The agent loop's listener for nested runs' events (see {@link NESTED_EVENTS}). */
  readonly onNested: ((report: NestedEventReport) => void) | undefined;
  readonly cancel: Subscribable<string | CallCancellation> | undefined;
  readonly retry: RetryPlan | undefined;
  readonly settleGrace: number;
  readonly onUnknownTool: "fail" | "answer";
  /** The run's call hooks, outermost first; `undefined` for none. */
  readonly hooks: readonly CallHook[] | undefined;
  /** Characters of a tool message's content the model reads at most; `Infinity` when unset. */
  readonly outputBudget: number;
  /** Whether the runner holds `needsApproval` calls for a decision (false inside the agent loop). */
  readonly gateApprovals: boolean;
  /** The host's decisions, by call id (the last one on a call wins). */
  readonly approvals: ReadonlyMap<string, ApprovalMessage> | undefined;
  readonly approvalSecret: ApprovalSecrets | undefined;
  readonly approvalLedger: ApprovalLedger | undefined;
  /** The host's repair for calls whose arguments failed validation; `undefined` for none. */
  readonly repair: RepairToolCall | undefined;
  /** See {@link NOT_OFFERED}: the `not_found` text for a call naming a tool the turn hides, or `undefined` for a tool that does not exist. */
  readonly notOffered: ((name: string) => string | undefined) | undefined;
  /** See {@link REMOTE_ATTEMPT}: one attempt, no retry, no tool deadlines or hooks (the producer's). */
  readonly remoteAttempt: boolean;
  /** Milliseconds a token is accepted for; `Infinity` when unset. */
  readonly approvalTokenTtl: number;
  /** See {@link CLIENT_CHANNEL}; `undefined` when no host can ask a client during a call. */
  readonly client: ClientChannel | undefined;
}

/**
 * Check every option and fill in the defaults. `callCount` is `undefined` for an Observable
 * of calls, whose size is unknown; `extraKeys` are the keys a caller's own options add.
 *
 * @throws {TypeError} naming the option and what it got.
 */
export function resolveOptions(options: RunOptions | undefined, callCount: number | undefined, extraKeys?: ReadonlySet<string>): RunEnv {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new TypeError(`Expected options to be an object, got ${describe(options)}`);
  // A renamed option is said as such, before it would be called unknown.
  if ((options as { onRecipeStep?: unknown }).onRecipeStep !== undefined) {
    throw new TypeError("`onRecipeStep` was replaced by `onCallReport`: recipe sub-steps are its `recipe_step_*` reports");
  }
  assertKnownOptions(options, extraKeys);
  const { engine, onToolError = "continue", toolTimeout = 30_000, signal, validateArguments = true } = options;

  if (onToolError !== "continue" && onToolError !== "halt" && !(typeof onToolError === "function" && onToolError.length <= 2)) {
    throw new TypeError(
      `Expected \`onToolError\` to be "continue", "halt" or a function (toolCall, error) => { continue: value } | "halt", got ${
        typeof onToolError === "function" ? `a function of ${(onToolError as (...args: never[]) => unknown).length} parameters` : describe(onToolError)
      }`,
    );
  }
  if (engine !== undefined && (typeof engine !== "object" || engine === null || Array.isArray(engine))) {
    throw new TypeError(`Expected \`engine\` to be an object, got ${describe(engine)}`);
  }
  const executor = options.toolExecutor ?? engine?.toolExecutor ?? defaultExecutor;
  if (typeof executor?.execute !== "function") {
    throw new TypeError(`Expected \`toolExecutor\` to have an \`execute\` method, got ${describe(executor)}`);
  }
  const executors = checkToolExecutors(options.toolExecutors);
  const encoder = options.toolResultEncoder ?? engine?.toolResultEncoder ?? jsonEncoder;
  if (typeof encoder?.encode !== "function" || typeof encoder.encodeError !== "function") {
    throw new TypeError(`Expected \`toolResultEncoder\` to have \`encode\` and \`encodeError\` methods, got ${describe(encoder)}`);
  }
  if (!isTimeout(toolTimeout)) throw new TypeError(`Expected \`toolTimeout\` ${TIMEOUT_RULE}, got ${describe(toolTimeout)}`);
  const { maxConcurrency } = options;
  if (maxConcurrency !== undefined && !(Number.isInteger(maxConcurrency) && maxConcurrency > 0)) {
    throw new TypeError(`Expected \`maxConcurrency\` to be a positive integer, got ${describe(maxConcurrency)}`);
  }
  if (
    signal !== undefined &&
    (typeof signal !== "object" || signal === null || typeof signal.aborted !== "boolean" || typeof signal.addEventListener !== "function")
  ) {
    throw new TypeError(`Expected \`signal\` to be an AbortSignal, got ${describe(signal)}`);
  }
  if (typeof validateArguments !== "boolean") {
    throw new TypeError(`Expected \`validateArguments\` to be a boolean, got ${describe(validateArguments)}`);
  }
  for (const key of ["sessionId", "requestId"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`Expected \`${key}\` to be a string, got ${describe(value)}`);
    }
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  if (typeof scheduler?.schedule !== "function" || typeof scheduler.now !== "function") {
    throw new TypeError(`Expected \`scheduler\` to be an RxJS SchedulerLike, got ${describe(scheduler)}`);
  }

  const { toolIdleTimeout = Infinity, onCallReport, cancel, settleGrace = 5_000 } = options;
  if (!isTimeout(toolIdleTimeout)) throw new TypeError(`Expected \`toolIdleTimeout\` ${TIMEOUT_RULE}, got ${describe(toolIdleTimeout)}`);
  if (onCallReport !== undefined && typeof onCallReport !== "function") {
    throw new TypeError(`Expected \`onCallReport\` to be a function, got ${describe(onCallReport)}`);
  }
  if (cancel !== undefined && typeof (cancel as { subscribe?: unknown } | null)?.subscribe !== "function") {
    throw new TypeError(`Expected \`cancel\` to be an Observable of call ids, got ${describe(cancel)}`);
  }
  if (!(typeof settleGrace === "number" && settleGrace >= 0 && settleGrace <= MAX_TIMEOUT)) {
    throw new TypeError(`Expected \`settleGrace\` to be a number of milliseconds from 0 to ${MAX_TIMEOUT}, got ${describe(settleGrace)}`);
  }
  const retry = options.retry === undefined ? undefined : checkRetryPolicy(options.retry, "retry");

  const { onUnknownTool = "fail" } = options;
  if (onUnknownTool !== "fail" && onUnknownTool !== "answer") {
    throw new TypeError(`Expected \`onUnknownTool\` to be "fail" or "answer", got ${describe(onUnknownTool)}`);
  }

  const hooks = checkHooks(options.hooks, "hooks");
  const outputBudget = options.outputBudget === undefined ? Infinity : checkOutputBudget(options.outputBudget, "outputBudget", "");
  const { approvalSecret, approvalLedger } = options;
  assertApprovalSecret(approvalSecret);
  assertApprovalLedger(approvalLedger);
  const approvalTokenTtl = checkApprovalTokenTtl(options.approvalTokenTtl, approvalSecret);
  const approvals = checkApprovals(options.approvals);

  const cap = 2 * availableCores();
  return {
    executor: executors === undefined || executors.size === 0 ? executor : routedExecutor(executor, executors),
    executors,
    encoder,
    policy: onToolError,
    timeout: toolTimeout,
    concurrency: maxConcurrency ?? (callCount === undefined ? cap : Math.max(1, Math.min(callCount, cap))),
    context: options.context ?? engine?.context ?? {},
    sessionId: options.sessionId,
    requestId: options.requestId,
    engine,
    signal,
    validate: validateArguments,
    scheduler,
    recipeConcurrency: maxConcurrency ?? cap,
    idleTimeout: toolIdleTimeout,
    onReport: onCallReport,
    onNested: (options as { [NESTED_EVENTS]?: (report: NestedEventReport) => void })[NESTED_EVENTS],
    cancel,
    retry,
    settleGrace,
    onUnknownTool,
    hooks,
    outputBudget,
    gateApprovals: (options as { [LOOP_APPROVES]?: boolean })[LOOP_APPROVES] !== true,
    approvals,
    approvalSecret,
    approvalLedger,
    repair: checkRepair(options.repairToolCall),
    client: (options as { [CLIENT_CHANNEL]?: ClientChannel })[CLIENT_CHANNEL],
    notOffered: (options as { [NOT_OFFERED]?: (name: string) => string | undefined })[NOT_OFFERED],
    remoteAttempt: (options as { [REMOTE_ATTEMPT]?: boolean })[REMOTE_ATTEMPT] === true,
    approvalTokenTtl,
  };
}
